import { describe, expect, it } from 'vitest';
import { csvField, markersCsv, neutraliseFormula } from '../engine/exports/markers-csv.js';
import { edlText, resolveMarkerEdl } from '../engine/exports/resolve-edl.js';
import { FLAGS, blackFrames, flag, loudness, safeArea } from './helpers/flags.js';


describe('markersCsv', () => {
  it('matches the golden CSV byte for byte', () => {
    const expected =
      'timecode,start_seconds,end_seconds,severity,gate,summary,instruction,action,reachable,id\r\n' +
      '00:00:00:00,0.000,120.250,WATCH,loudness,"Integrated -16.2 LUFS, 2.2 LU under ""video site"" target",' +
      '"Run: ffmpeg -i in.mp4 -af loudnorm=I=-14:TP=-1.0 out.mp4\nthen re-check | compare",normalize_loudness,true,f_0002\r\n' +
      "00:00:12:01,12.040,12.040,WATCH,text_safe_area,'-Caption outside the graphics-safe area,'@bottom: move caption up 40 px,edit_overlay,false,f_0003\r\n" +
      '00:01:02:12,62.500,65.000,BLOCK,black_frames,2.5 s of black picture mid-programme,' +
      '"Replace 00:01:02.500-00:01:05.000 with picture, or cut the span and re-render.",re_render_span,true,f_0001\r\n';
    expect(markersCsv(FLAGS, 25)).toBe(expected);
  });

  it('is deterministic whatever the input order', () => {
    expect(markersCsv([safeArea, loudness, blackFrames], 25)).toBe(markersCsv(FLAGS, 25));
  });

  it('writes only the header for no flags', () => {
    expect(markersCsv([], 25)).toBe('timecode,start_seconds,end_seconds,severity,gate,summary,instruction,action,reachable,id\r\n');
  });

  it('uses drop-frame timecode at 29.97', () => {
    const row = markersCsv([flag({ id: 'f_1', gate: 'g', severity: 'WATCH', start: 60.06, end: 61, summary: 's' })], 29.97).split('\r\n')[1];
    expect(row.startsWith('00:01:00;02,60.060,61.000,')).toBe(true);
  });

  it('guards summary and instruction against formula injection', () => {
    const hostile = flag(
      { id: 'f_9', gate: 'g', severity: 'BLOCK', start: 1, end: 2, summary: '=HYPERLINK("http://evil.example","click")' },
      { instruction: '+SUM(A1:A9)' },
    );
    const row = markersCsv([hostile], 25).split('\r\n')[1];
    expect(row).toBe(`00:00:01:00,1.000,2.000,BLOCK,g,"'=HYPERLINK(""http://evil.example"",""click"")",'+SUM(A1:A9),review,true,f_9`);
  });
});

describe('CSV fields', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ["it's", "it's"],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['a=1', 'a=1'],
    ['1-2', '1-2'],
    ['', ''],
  ])('neutraliseFormula(%j) → %j', (value, expected) => {
    expect(neutraliseFormula(value)).toBe(expected);
  });
});

describe('resolveMarkerEdl', () => {
  it('matches the golden Resolve marker EDL byte for byte', () => {
    const expected =
      'TITLE: Preflight QC\n' +
      'FCM: NON-DROP FRAME\n' +
      '\n' +
      '001  001      V     C        01:00:00:00 01:02:00:06 01:00:00:00 01:02:00:06  \n' +
      'f_0002 WATCH: Run: ffmpeg -i in.mp4 -af loudnorm=I=-14:TP=-1.0 out.mp4 then re-check compare |C:ResolveColorYellow ' +
      '|M:loudness: Integrated -16.2 LUFS, 2.2 LU under "video site" target |D:3006\n' +
      '\n' +
      '002  001      V     C        01:00:12:01 01:00:12:02 01:00:12:01 01:00:12:02  \n' +
      'f_0003 WATCH: @bottom: move caption up 40 px |C:ResolveColorYellow |M:text_safe_area: -Caption outside the graphics-safe area |D:1\n' +
      '\n' +
      '003  001      V     C        01:01:02:12 01:01:05:00 01:01:02:12 01:01:05:00  \n' +
      'f_0001 BLOCK: Replace 00:01:02.500-00:01:05.000 with picture, or cut the span and re-render. |C:ResolveColorRed ' +
      '|M:black_frames: 2.5 s of black picture mid-programme |D:63\n' +
      '\n';
    expect(resolveMarkerEdl(FLAGS, { fps: 25 })).toBe(expected);
  });

  it('uses the title and start timecode given, and drop frame at 29.97', () => {
    const oneFlag = flag({ id: 'f_1', gate: 'loudness', severity: 'BLOCK', start: 60.06, end: 60.06, summary: 'Too loud' });
    const expected =
      'TITLE: Episode 12 final\n' +
      'FCM: DROP FRAME\n' +
      '\n' +
      '001  001      V     C        01:01:00;02 01:01:00;03 01:01:00;02 01:01:00;03  \n' +
      'f_1 BLOCK: Review the span. |C:ResolveColorRed |M:loudness: Too loud |D:1\n' +
      '\n';
    expect(resolveMarkerEdl([oneFlag], { fps: 29.97, title: 'Episode 12\nfinal', startTimecode: '01:00:00;00' })).toBe(expected);
  });

  it('writes a header only when there are no flags', () => {
    expect(resolveMarkerEdl([], { fps: 24, startTimecode: '00:00:00:00' })).toBe('TITLE: Preflight QC\nFCM: NON-DROP FRAME\n\n');
  });

  it('wraps record timecode at 24 hours', () => {
    const late = flag({ id: 'f_1', gate: 'g', severity: 'WATCH', start: 2, end: 3, summary: 's' });
    const edl = resolveMarkerEdl([late], { fps: 25, startTimecode: '23:59:59:00' });
    expect(edl).toContain('001  001      V     C        00:00:01:00 00:00:02:00 00:00:01:00 00:00:02:00  \n');
  });

  it('rejects an invalid start timecode', () => {
    expect(() => resolveMarkerEdl([], { fps: 25, startTimecode: '1:00:00' })).toThrow(RangeError);
  });

  it('keeps at most 999 events, BLOCK first, and says how many were left out', () => {
    const watches = Array.from({ length: 1001 }, (_, i) =>
      flag({ id: `f_w${String(i).padStart(4, '0')}`, gate: 'dead_air', severity: 'WATCH', start: i, end: i + 0.5, summary: 'Silence' }),
    );
    const blocks = [2000, 2001].map((start) => flag({ id: `f_b${start}`, gate: 'clipping', severity: 'BLOCK', start, end: start + 1, summary: 'Clipped' }));
    const edl = resolveMarkerEdl([...watches, ...blocks], { fps: 25 });
    const eventLines = edl.split('\n').filter((line) => /^\d{3} {2}001 /.test(line));
    expect(eventLines).toHaveLength(999);
    expect(eventLines[998].startsWith('999  ')).toBe(true);
    expect(edl).toContain('f_b2000 BLOCK');
    expect(edl).toContain('f_b2001 BLOCK');
    expect(edl).toContain('f_w0996 WATCH');
    expect(edl).not.toContain('f_w0997 WATCH');
    expect(edl.endsWith('\n\n* PREFLIGHT: 4 more flags not exported (an EDL holds at most 999 events); see the report or the marker CSV.\n')).toBe(true);
  });
});

describe('edlText', () => {
  it('removes "|" and turns line breaks into single spaces', () => {
    expect(edlText('a | b\r\nc\n\nd\t|e ')).toBe('a b c d e');
  });
});
