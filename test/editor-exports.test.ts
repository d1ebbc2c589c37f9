import { describe, expect, it } from 'vitest';
import { avidComment, avidMarkers, AVID_FIELD_COUNT, AVID_MAX_COMMENT_LENGTH } from '../engine/exports/avid-markers.js';
import { type EditorExportOptions, fcpxFrameDuration, fcpxTime, fcpxmlMarkers, mediaUrl, xmlSafeText } from '../engine/exports/fcpxml.js';
import { premiereXml, sequenceRate } from '../engine/exports/premiere-xml.js';
import { FLAGS, blackFrames, flag, loudness, safeArea } from './helpers/flags.js';

const OPTIONS: EditorExportOptions = { fps: 25, durationSeconds: 125, mediaName: 'Episode 12 (final).mov' };

const EXPORTERS = { fcpxmlMarkers, premiereXml, avidMarkers };
const XML_EXPORTERS = { fcpxmlMarkers, premiereXml };

const documentOf = (...lines: string[]): string => lines.join('\n') + '\n';

// A tiny stack-based well-formedness check: one root element, every tag closed in order, attributes quoted, no raw
// "<" or stray "&" in text or attribute values, no control characters but tab and line breaks (stricter than XML 1.0,
// which only discourages C1). Returns the problems found.
const NAME = '[A-Za-z_][\\w.:-]*';
const TAG_BODY = new RegExp(`^(/)?(${NAME})((?:\\s+${NAME}="[^"<]*")*)\\s*(/)?$`);
const BAD_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);)/;
const FORBIDDEN_CHARACTER = /(?![\t\n\r])[\p{Cc}\p{Cs}\uFFFE\uFFFF]/u;

function wellFormednessProblems(xml: string): string[] {
  const problems: string[] = [];
  if (FORBIDDEN_CHARACTER.test(xml)) problems.push('forbidden character');
  const body = xml.replace(/^<\?xml [^?]*\?>\n<!DOCTYPE \w+>\n/, '');
  if (body === xml) problems.push('missing XML declaration or DOCTYPE');
  const stack: string[] = [];
  let roots = 0;
  for (const token of body.split(/(<[^>]*>)/)) {
    if (!token.startsWith('<')) {
      if (token.includes('>') || BAD_AMPERSAND.test(token)) problems.push(`bad text ${JSON.stringify(token)}`);
      if (stack.length === 0 && token.trim() !== '') problems.push(`text outside the root ${JSON.stringify(token)}`);
      continue;
    }
    const match = TAG_BODY.exec(token.slice(1, -1));
    if (!match) {
      problems.push(`malformed tag ${token}`);
      continue;
    }
    const [, closing, name, attributes, selfClosing] = match;
    if (BAD_AMPERSAND.test(attributes)) problems.push(`bad attribute value in ${token}`);
    if (closing) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open}>`);
      continue;
    }
    if (stack.length === 0) roots += 1;
    if (!selfClosing) stack.push(name);
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

function attributeValues(xml: string, attribute: string): string[] {
  return [...xml.matchAll(new RegExp(` ${attribute}="([^"]*)"`, 'g'))].map((match) => match[1]);
}

function elementTexts(xml: string, element: string): string[] {
  return [...xml.matchAll(new RegExp(`<${element}>([^<]*)</${element}>`, 'g'))].map((match) => match[1]);
}

function parseRational(time: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\/(\d+))?s$/.exec(time);
  if (!match) throw new Error(`not an FCPXML time: ${time}`);
  return { numerator: BigInt(match[1]), denominator: BigInt(match[2] ?? '1') };
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

describe('golden files', () => {
  it('fcpxmlMarkers matches the golden FCPXML 1.9 byte for byte', () => {
    const expected = documentOf(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE fcpxml>',
      '<fcpxml version="1.9">',
      '    <resources>',
      '        <format id="r1" frameDuration="1/25s" width="1920" height="1080"/>',
      '        <asset id="r2" name="Episode 12 (final).mov" start="0s" duration="125s" hasVideo="1" format="r1">',
      '            <media-rep kind="original-media" src="file://./Episode%2012%20%28final%29.mov"/>',
      '        </asset>',
      '    </resources>',
      '    <library>',
      '        <event name="Preflight QC">',
      '            <project name="Preflight QC: Episode 12 (final).mov">',
      '                <sequence format="r1" duration="125s" tcStart="0s" tcFormat="NDF">',
      '                    <spine>',
      '                        <asset-clip ref="r2" offset="0s" name="Episode 12 (final).mov" duration="125s" tcFormat="NDF">',
      '                            <marker start="0s" duration="3006/25s" value="WATCH loudness" note="Integrated -16.2 LUFS, 2.2 LU under &quot;video site&quot; target — Run: ffmpeg -i in.mp4 -af loudnorm=I=-14:TP=-1.0 out.mp4 then re-check | compare" completed="0"/>',
      '                            <marker start="301/25s" duration="1/25s" value="WATCH text_safe_area" note="-Caption outside the graphics-safe area — @bottom: move caption up 40 px" completed="0"/>',
      '                            <marker start="1562/25s" duration="63/25s" value="BLOCK black_frames" note="2.5 s of black picture mid-programme — Replace 00:01:02.500-00:01:05.000 with picture, or cut the span and re-render." completed="0"/>',
      '                        </asset-clip>',
      '                    </spine>',
      '                </sequence>',
      '            </project>',
      '        </event>',
      '    </library>',
      '</fcpxml>',
    );
    expect(fcpxmlMarkers(FLAGS, OPTIONS)).toBe(expected);
  });

  it('premiereXml matches the golden FCP7 XML byte for byte', () => {
    const expected = documentOf(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE xmeml>',
      '<xmeml version="4">',
      '\t<sequence id="sequence-1">',
      '\t\t<name>Preflight QC: Episode 12 (final).mov</name>',
      '\t\t<duration>3125</duration>',
      '\t\t<rate>',
      '\t\t\t<timebase>25</timebase>',
      '\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t</rate>',
      '\t\t<timecode>',
      '\t\t\t<rate>',
      '\t\t\t\t<timebase>25</timebase>',
      '\t\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t\t</rate>',
      '\t\t\t<string>00:00:00:00</string>',
      '\t\t\t<frame>0</frame>',
      '\t\t\t<displayformat>NDF</displayformat>',
      '\t\t</timecode>',
      '\t\t<media>',
      '\t\t\t<video>',
      '\t\t\t\t<format>',
      '\t\t\t\t\t<samplecharacteristics>',
      '\t\t\t\t\t\t<rate>',
      '\t\t\t\t\t\t\t<timebase>25</timebase>',
      '\t\t\t\t\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t\t\t\t\t</rate>',
      '\t\t\t\t\t\t<width>1920</width>',
      '\t\t\t\t\t\t<height>1080</height>',
      '\t\t\t\t\t\t<anamorphic>FALSE</anamorphic>',
      '\t\t\t\t\t\t<pixelaspectratio>square</pixelaspectratio>',
      '\t\t\t\t\t\t<fielddominance>none</fielddominance>',
      '\t\t\t\t\t</samplecharacteristics>',
      '\t\t\t\t</format>',
      '\t\t\t\t<track>',
      '\t\t\t\t\t<clipitem id="clipitem-1">',
      '\t\t\t\t\t\t<name>Episode 12 (final).mov</name>',
      '\t\t\t\t\t\t<enabled>TRUE</enabled>',
      '\t\t\t\t\t\t<duration>3125</duration>',
      '\t\t\t\t\t\t<rate>',
      '\t\t\t\t\t\t\t<timebase>25</timebase>',
      '\t\t\t\t\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t\t\t\t\t</rate>',
      '\t\t\t\t\t\t<start>0</start>',
      '\t\t\t\t\t\t<end>3125</end>',
      '\t\t\t\t\t\t<in>0</in>',
      '\t\t\t\t\t\t<out>3125</out>',
      '\t\t\t\t\t\t<file id="file-1">',
      '\t\t\t\t\t\t\t<name>Episode 12 (final).mov</name>',
      '\t\t\t\t\t\t\t<pathurl>file://./Episode%2012%20%28final%29.mov</pathurl>',
      '\t\t\t\t\t\t\t<rate>',
      '\t\t\t\t\t\t\t\t<timebase>25</timebase>',
      '\t\t\t\t\t\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t\t\t\t\t\t</rate>',
      '\t\t\t\t\t\t\t<duration>3125</duration>',
      '\t\t\t\t\t\t\t<media>',
      '\t\t\t\t\t\t\t\t<video>',
      '\t\t\t\t\t\t\t\t\t<samplecharacteristics>',
      '\t\t\t\t\t\t\t\t\t\t<rate>',
      '\t\t\t\t\t\t\t\t\t\t\t<timebase>25</timebase>',
      '\t\t\t\t\t\t\t\t\t\t\t<ntsc>FALSE</ntsc>',
      '\t\t\t\t\t\t\t\t\t\t</rate>',
      '\t\t\t\t\t\t\t\t\t\t<width>1920</width>',
      '\t\t\t\t\t\t\t\t\t\t<height>1080</height>',
      '\t\t\t\t\t\t\t\t\t\t<anamorphic>FALSE</anamorphic>',
      '\t\t\t\t\t\t\t\t\t\t<pixelaspectratio>square</pixelaspectratio>',
      '\t\t\t\t\t\t\t\t\t\t<fielddominance>none</fielddominance>',
      '\t\t\t\t\t\t\t\t\t</samplecharacteristics>',
      '\t\t\t\t\t\t\t\t</video>',
      '\t\t\t\t\t\t\t</media>',
      '\t\t\t\t\t\t</file>',
      '\t\t\t\t\t</clipitem>',
      '\t\t\t\t</track>',
      '\t\t\t</video>',
      '\t\t</media>',
      '\t\t<marker>',
      '\t\t\t<name>WATCH loudness</name>',
      '\t\t\t<comment>Integrated -16.2 LUFS, 2.2 LU under &quot;video site&quot; target — Run: ffmpeg -i in.mp4 -af loudnorm=I=-14:TP=-1.0 out.mp4 then re-check | compare</comment>',
      '\t\t\t<in>0</in>',
      '\t\t\t<out>3006</out>',
      '\t\t\t<pproColor>4281049552</pproColor>',
      '\t\t</marker>',
      '\t\t<marker>',
      '\t\t\t<name>WATCH text_safe_area</name>',
      '\t\t\t<comment>-Caption outside the graphics-safe area — @bottom: move caption up 40 px</comment>',
      '\t\t\t<in>301</in>',
      '\t\t\t<out>302</out>',
      '\t\t\t<pproColor>4281049552</pproColor>',
      '\t\t</marker>',
      '\t\t<marker>',
      '\t\t\t<name>BLOCK black_frames</name>',
      '\t\t\t<comment>2.5 s of black picture mid-programme — Replace 00:01:02.500-00:01:05.000 with picture, or cut the span and re-render.</comment>',
      '\t\t\t<in>1562</in>',
      '\t\t\t<out>1625</out>',
      '\t\t\t<pproColor>4281740498</pproColor>',
      '\t\t</marker>',
      '\t</sequence>',
      '</xmeml>',
    );
    expect(premiereXml(FLAGS, OPTIONS)).toBe(expected);
  });

  it('avidMarkers matches the golden Avid marker text byte for byte', () => {
    const expected =
      'Preflight\t01:00:00:00\tV1\tYellow\tWATCH loudness: Integrated -16.2 LUFS, 2.2 LU under "video site" target\t3006\t\tYellow\n' +
      'Preflight\t01:00:12:01\tV1\tYellow\tWATCH text_safe_area: -Caption outside the graphics-safe area\t1\t\tYellow\n' +
      'Preflight\t01:01:02:12\tV1\tRed\tBLOCK black_frames: 2.5 s of black picture mid-programme\t63\t\tRed\n';
    expect(avidMarkers(FLAGS, OPTIONS)).toBe(expected);
  });
});

describe('well-formedness check (the test helper itself)', () => {
  const wrap = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE x>\n${body}\n`;

  it('accepts a well-formed document', () => {
    expect(wellFormednessProblems(wrap('<a b="1 &amp; 2"><c/><d>x &lt; y</d></a>'))).toEqual([]);
  });

  it.each([
    ['<a><b></a></b>', '</a> closes <b>'],
    ['<a><b></a>', '</a> closes <b>'],
    ['<a>', 'unclosed a'],
    ['<a/><b/>', '2 root elements'],
    ['<a>fish & chips</a>', 'bad text "fish & chips"'],
    ['<a b="x & y"/>', 'bad attribute value in <a b="x & y"/>'],
    ['<a b=unquoted/>', 'malformed tag <a b=unquoted/>'],
    ['<a>\u0001</a>', 'forbidden character'],
  ])('rejects %j', (body, problem) => {
    expect(wellFormednessProblems(wrap(body))).toContain(problem);
  });
});

describe('editor exports: shared rules', () => {
  const hostile = flag(
    { id: 'f_x', gate: 'gate <"&\'>', severity: 'BLOCK', start: 1, end: 2, summary: 'A & B < C > D "E" \'F\'\u0000\u0007\u001B\u007F\u0085 end\ttab\r\nline' },
    { instruction: 'Fix </marker> & <b>it</b>\u0008' },
  );

  it.each(Object.entries(XML_EXPORTERS))('%s is well formed, with flags, hostile text and no flags', (_name, exporter) => {
    for (const flags of [FLAGS, [hostile], []]) {
      for (const fps of [25, 29.97, 23.976, 59.94]) {
        expect(wellFormednessProblems(exporter(flags, { ...OPTIONS, fps, mediaName: 'a <b> & "c" \'d\'.mov' }))).toEqual([]);
      }
    }
  });

  it.each(Object.entries(XML_EXPORTERS))('%s escapes & < > " \' and removes control characters', (_name, exporter) => {
    const xml = exporter([hostile], OPTIONS);
    expect(xml).toContain('A &amp; B &lt; C &gt; D &quot;E&quot; &apos;F&apos; end tab line');
    expect(xml).toContain('BLOCK gate &lt;&quot;&amp;&apos;&gt;');
    expect(xml).toContain('Fix &lt;/marker&gt; &amp; &lt;b&gt;it&lt;/b&gt;');
    expect(xml).not.toMatch(/(?![\t\n])\p{Cc}/u);
  });

  it.each(Object.entries(EXPORTERS))('%s writes a valid document with no markers for no flags', (_name, exporter) => {
    const output = exporter([], OPTIONS);
    expect(output).not.toMatch(/marker|Preflight\t/);
    if (exporter !== avidMarkers) expect(output).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/);
  });

  it('writes no markers but a whole clip for no flags', () => {
    expect(fcpxmlMarkers([], OPTIONS)).toContain(
      '<asset-clip ref="r2" offset="0s" name="Episode 12 (final).mov" duration="125s" tcFormat="NDF"/>\n',
    );
    expect(premiereXml([], OPTIONS)).toContain('\t\t</media>\n\t</sequence>\n</xmeml>\n');
    expect(avidMarkers([], OPTIONS)).toBe('');
  });

  it.each(Object.entries(EXPORTERS))('%s is deterministic whatever the input order', (_name, exporter) => {
    const sameStart = flag({ id: 'f_0004', gate: 'audio_clipping', severity: 'BLOCK', start: 62.5, end: 63, summary: 'Clipped' });
    const expected = exporter([blackFrames, loudness, safeArea, sameStart], OPTIONS);
    expect(exporter([sameStart, safeArea, loudness, blackFrames], OPTIONS)).toBe(expected);
    expect(exporter([safeArea, sameStart, blackFrames, loudness], OPTIONS)).toBe(expected);
    // Equal starts: gate, then id, as in the marker CSV.
    expect(expected.indexOf('audio_clipping')).toBeLessThan(expected.indexOf('black_frames'));
  });

  it.each(Object.entries(EXPORTERS))('%s keeps markers inside the media', (_name, exporter) => {
    const late = flag({ id: 'f_late', gate: 'g', severity: 'WATCH', start: 200, end: 210, summary: 'After the end' });
    const overrun = flag({ id: 'f_over', gate: 'g', severity: 'WATCH', start: 124, end: 130, summary: 'Past the end' });
    const output = exporter([late, overrun], { ...OPTIONS, durationSeconds: 125 });
    if (exporter === fcpxmlMarkers) {
      expect(attributeValues(output, 'start')).toEqual(['0s', '124s', '3124/25s']);
      expect(attributeValues(output, 'duration').slice(-2)).toEqual(['1s', '1/25s']);
    } else if (exporter === premiereXml) {
      expect(elementTexts(output, 'in').slice(-2)).toEqual(['3100', '3124']);
      expect(elementTexts(output, 'out').slice(-2)).toEqual(['3125', '3125']);
    } else {
      expect(output.trimEnd().split('\n').map((line) => line.split('\t')[5])).toEqual(['25', '1']);
    }
  });

  it.each(Object.entries(EXPORTERS))('%s rejects invalid options', (_name, exporter) => {
    expect(() => exporter(FLAGS, { ...OPTIONS, startTimecode: '1:00:00' })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, durationSeconds: -1 })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, durationSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, fps: 0 })).toThrow(RangeError);
  });

  it.each(Object.entries(XML_EXPORTERS))('%s rejects an empty media name or frame size', (_name, exporter) => {
    expect(() => exporter(FLAGS, { ...OPTIONS, mediaName: '' })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, mediaName: 'media/' })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, mediaWidth: 0 })).toThrow(RangeError);
    expect(() => exporter(FLAGS, { ...OPTIONS, mediaHeight: 1080.5 })).toThrow(RangeError);
  });
});

describe('xmlSafeText', () => {
  it.each([
    ['a & b < c > d " e \' f', 'a &amp; b &lt; c &gt; d &quot; e &apos; f'],
    ['&amp;', '&amp;amp;'],
    ['x\u0000y\u0007z\u001Fw\u007F\u0085v\uFFFE\uFFFFu', 'xyzwvu'],
    ['lone \uD800 surrogate \uDC00 halves', 'lone surrogate halves'],
    ['emoji 😀 and accents é stay', 'emoji 😀 and accents é stay'],
    ['  line\r\nbreak\tand   tab  ', 'line break and tab'],
    ['', ''],
  ])('%j → %j', (text, expected) => {
    expect(xmlSafeText(text)).toBe(expected);
  });
});

describe('mediaUrl', () => {
  it.each([
    ['clip.mov', 'file://./clip.mov'],
    ['Episode 12 (final).mov', 'file://./Episode%2012%20%28final%29.mov'],
    ['/Volumes/A/shots/a#1?.mov', 'file://./a%231%3F.mov'],
    ['C:\\media\\it\'s.mxf', 'file://./it%27s.mxf'],
  ])('%j → %j', (name, expected) => {
    expect(mediaUrl(name)).toBe(expected);
  });
});

describe('fcpxmlMarkers', () => {
  it.each([
    [29.97, '1001/30000s'],
    [30000 / 1001, '1001/30000s'],
    [23.976, '1001/24000s'],
    [24000 / 1001, '1001/24000s'],
    [59.94, '1001/60000s'],
    [25, '1/25s'],
    [24, '1/24s'],
    [50, '1/50s'],
    [12.5, '2/25s'],
  ])('frameDuration at %d fps is %s', (fps, expected) => {
    expect(fcpxFrameDuration(fps)).toBe(expected);
  });

  it.each([
    [0, 29.97, '0s'],
    [1, 29.97, '1001/30000s'],
    [90, 29.97, '3003/1000s'],
    [30000, 29.97, '1001s'],
    [24, 23.976, '1001/1000s'],
    [48, 23.976, '1001/500s'],
    [50, 25, '2s'],
    [301, 25, '301/25s'],
    [5, 12.5, '2/5s'],
  ])('%d frames at %d fps is %s', (frames, fps, expected) => {
    expect(fcpxTime(frames, fps)).toBe(expected);
  });

  it('rejects a fractional or negative frame count', () => {
    expect(() => fcpxTime(1.5, 25)).toThrow(RangeError);
    expect(() => fcpxTime(-1, 25)).toThrow(RangeError);
  });

  it.each([29.97, 23.976, 25, 59.94, 24, 50])('writes every time as a reduced rational on the %d fps frame grid', (fps) => {
    const flags = [0, 0.5, 1, 7.3, 59.99, 60.06, 61.2, 599.5, 600.1].map((start, i) =>
      flag({ id: `f_${i}`, gate: 'g', severity: 'WATCH', start, end: start + i * 0.37, summary: 's' }),
    );
    const xml = fcpxmlMarkers(flags, { ...OPTIONS, fps, durationSeconds: 700, startTimecode: '01:00:00:00' });
    const frameDuration = parseRational(fcpxFrameDuration(fps));
    const times = ['start', 'duration', 'offset', 'tcStart'].flatMap((attribute) => attributeValues(xml, attribute));
    expect(times.length).toBeGreaterThan(flags.length * 2);
    for (const time of times) {
      const { numerator, denominator } = parseRational(time);
      expect(gcd(numerator, denominator), `${time} is reduced`).toBe(numerator === 0n ? denominator : 1n);
      // time / frameDuration is a whole number of frames.
      expect((numerator * frameDuration.denominator) % (denominator * frameDuration.numerator), `${time} is on the grid`).toBe(0n);
    }
  });

  it('labels drop frame at 29.97 and 59.94, non-drop otherwise, on the sequence and the clip', () => {
    for (const [fps, label] of [[29.97, 'DF'], [59.94, 'DF'], [23.976, 'NDF'], [25, 'NDF'], [30, 'NDF']] as const) {
      expect(attributeValues(fcpxmlMarkers(FLAGS, { ...OPTIONS, fps }), 'tcFormat'), `${fps} fps`).toEqual([label, label]);
    }
  });

  it('places markers at 29.97 on the drop-frame grid', () => {
    const oneFlag = flag({ id: 'f_1', gate: 'loudness', severity: 'BLOCK', start: 3.0, end: 4.5, summary: 'Too loud' });
    const xml = fcpxmlMarkers([oneFlag], { ...OPTIONS, fps: 29.97 });
    // 3.0 s is frame 89 (89.91 frames in), 4.5 s frame 134: 45 frames.
    expect(xml).toContain('<marker start="89089/30000s" duration="3003/2000s" value="BLOCK loudness" note="Too loud — Review the span." completed="0"/>');
  });

  it('starts the sequence and the clip at the start timecode, leaving clip-local marker times alone', () => {
    const xml = fcpxmlMarkers([safeArea], { ...OPTIONS, startTimecode: '01:00:00:00' });
    expect(xml).toContain('<sequence format="r1" duration="125s" tcStart="3600s" tcFormat="NDF">');
    expect(xml).toContain('<asset-clip ref="r2" offset="3600s" ');
    expect(xml).toContain('<marker start="301/25s" ');
    const dropFrame = fcpxmlMarkers([], { ...OPTIONS, fps: 29.97, startTimecode: '01:00:00;00' });
    // 01:00:00;00 is frame 107892 in drop-frame counting.
    expect(attributeValues(dropFrame, 'tcStart')).toEqual(['8999991/2500s']);
  });

  it('writes the frame size given', () => {
    expect(fcpxmlMarkers([], { ...OPTIONS, mediaWidth: 1080, mediaHeight: 1920 })).toContain(
      '<format id="r1" frameDuration="1/25s" width="1080" height="1920"/>',
    );
  });
});

describe('premiereXml', () => {
  it.each([
    [29.97, 30, 'TRUE', 'DF', '00:00:00;00'],
    [59.94, 60, 'TRUE', 'DF', '00:00:00;00'],
    [23.976, 24, 'TRUE', 'NDF', '00:00:00:00'],
    [25, 25, 'FALSE', 'NDF', '00:00:00:00'],
    [30, 30, 'FALSE', 'NDF', '00:00:00:00'],
  ])('at %d fps writes timebase %d, ntsc %s and %s labels', (fps, timebase, ntsc, displayFormat, timecode) => {
    const xml = premiereXml(FLAGS, { ...OPTIONS, fps });
    expect(new Set(elementTexts(xml, 'timebase'))).toEqual(new Set([String(timebase)]));
    expect(new Set(elementTexts(xml, 'ntsc'))).toEqual(new Set([ntsc]));
    expect(elementTexts(xml, 'displayformat')).toEqual([displayFormat]);
    expect(elementTexts(xml, 'string')).toEqual([timecode]);
  });

  it('relabels a start timecode to match the rate, whatever separator it was given in', () => {
    const dropFrame = premiereXml([], { ...OPTIONS, fps: 29.97, startTimecode: '01:00:00:00' });
    expect(elementTexts(dropFrame, 'string')).toEqual(['01:00:00;00']);
    expect(elementTexts(dropFrame, 'frame')).toEqual(['107892']);
    const nonDrop = premiereXml([], { ...OPTIONS, fps: 25, startTimecode: '10:00:00;00' });
    expect(elementTexts(nonDrop, 'string')).toEqual(['10:00:00:00']);
    expect(elementTexts(nonDrop, 'frame')).toEqual(['900000']);
  });

  it('counts marker frames on the sequence timebase, sequence-relative whatever the start timecode', () => {
    const oneFlag = flag({ id: 'f_1', gate: 'loudness', severity: 'BLOCK', start: 60.06, end: 61, summary: 'Too loud' });
    const xml = premiereXml([oneFlag], { ...OPTIONS, fps: 29.97, startTimecode: '01:00:00;00' });
    expect(xml).toContain('\t\t\t<in>1800</in>\n\t\t\t<out>1828</out>\n\t\t\t<pproColor>4281740498</pproColor>\n');
  });

  it('writes rates without an integer timebase at the rounded timebase, with frames counted at that rate', () => {
    expect(sequenceRate(12.5)).toEqual({ timebase: 13, ntsc: false, fps: 13 });
    const xml = premiereXml([flag({ id: 'f_1', gate: 'g', severity: 'WATCH', start: 10, end: 11, summary: 's' })], { ...OPTIONS, fps: 12.5 });
    expect(elementTexts(xml, 'in').slice(-1)).toEqual(['130']);
    expect(elementTexts(xml, 'duration')[0]).toBe('1625');
  });
});

describe('avidMarkers', () => {
  const tricky = flag(
    { id: 'f_t', gate: 'gate\twith\ttabs', severity: 'BLOCK', start: 3, end: 4, summary: 'line one\nline two\r\n\tindented\u0000 end' },
    { instruction: 'not in the comment' },
  );

  it('writes 8 tab-separated fields per LF-terminated line, no tabs inside fields, colour twice', () => {
    const text = avidMarkers([...FLAGS, tricky], OPTIONS);
    expect(text).not.toContain('\r');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      const fields = line.split('\t');
      expect(fields).toHaveLength(AVID_FIELD_COUNT);
      expect(fields[0]).toBe('Preflight');
      expect(fields[1]).toMatch(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/);
      expect(fields[2]).toBe('V1');
      expect(['Red', 'Yellow']).toContain(fields[3]);
      expect(fields[5]).toMatch(/^[1-9]\d*$/);
      expect(fields[6]).toBe('');
      expect(fields[7]).toBe(fields[3]);
    }
    expect(lines[1]).toBe('Preflight\t01:00:03:00\tV1\tRed\tBLOCK gate with tabs: line one line two indented end\t25\t\tRed');
  });

  it('uses drop-frame record timecode at 29.97, offset by the start timecode', () => {
    const oneFlag = flag({ id: 'f_1', gate: 'loudness', severity: 'WATCH', start: 60.06, end: 61, summary: 'Quiet' });
    expect(avidMarkers([oneFlag], { ...OPTIONS, fps: 29.97 })).toBe('Preflight\t01:01:00;02\tV1\tYellow\tWATCH loudness: Quiet\t28\t\tYellow\n');
    expect(avidMarkers([oneFlag], { ...OPTIONS, fps: 29.97, startTimecode: '00:00:00;00' })).toContain('\t00:01:00;02\t');
    // 60.06 s is exactly frame 1440 at 24000/1001, labelled non-drop.
    expect(avidMarkers([oneFlag], { ...OPTIONS, fps: 23.976 })).toContain('\t01:01:00:00\t');
  });

  it('wraps record timecode at 24 hours', () => {
    const late = flag({ id: 'f_1', gate: 'g', severity: 'WATCH', start: 2, end: 3, summary: 's' });
    expect(avidMarkers([late], { ...OPTIONS, startTimecode: '23:59:59:00' })).toContain('\t00:00:01:00\t');
  });

  it('caps comments at 32 000 characters without splitting a surrogate pair', () => {
    expect(avidComment('x'.repeat(40_000))).toHaveLength(AVID_MAX_COMMENT_LENGTH);
    const emojiAtTheCut = 'x'.repeat(AVID_MAX_COMMENT_LENGTH - 1) + '😀tail';
    expect(avidComment(emojiAtTheCut)).toBe('x'.repeat(AVID_MAX_COMMENT_LENGTH - 1));
    const long = flag({ id: 'f_1', gate: 'g', severity: 'WATCH', start: 0, end: 1, summary: 'y'.repeat(40_000) });
    expect(avidMarkers([long], OPTIONS).split('\t')[4]).toHaveLength(AVID_MAX_COMMENT_LENGTH);
  });
});
