// The page's only stylesheet, inlined. Mobile first: one column, wrapping text, tables scroll inside their own box.
export const REPORT_CSS = `
:root{--bg:#fff;--fg:#1a1d21;--muted:#5b6470;--line:#d9dde3;--panel:#f5f7f9;--block:#c62828;--block-bg:#fdecea;--watch:#b26a00;--watch-fill:#f2a900;--watch-bg:#fff5db;--pass:#1e7b34;--pass-bg:#e7f5ea;--accent:#1f5fbf;--momentary:#7aa7e6;--short-term:#0b3d91;--target:#c62828;--wave:#4a6a8a;--wave-rms:#1f3550}
@media (prefers-color-scheme:dark){:root{--bg:#121417;--fg:#e8eaed;--muted:#9aa3ad;--line:#2e333a;--panel:#1b1f24;--block:#ff6b6b;--block-bg:#3a1d1d;--watch:#ffc44d;--watch-fill:#e0a100;--watch-bg:#3a2f12;--pass:#5fd07a;--pass-bg:#173222;--accent:#8ab4f8;--momentary:#5b87c9;--short-term:#c7dcff;--target:#ff6b6b;--wave:#6f8fb0;--wave-rms:#c7dcff}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
main{max-width:1100px;margin:0 auto;padding:12px}
h1{font-size:1.35rem;line-height:1.25;margin:.1rem 0 .3rem}
h2{font-size:1.15rem;margin:1.8rem 0 .6rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1rem;margin:1rem 0 .4rem}
a{color:var(--accent)}
.muted{color:var(--muted)}
.small{font-size:.85rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.note{background:var(--watch-bg);border-left:4px solid var(--watch-fill);padding:.5rem .75rem;border-radius:4px}
nav.toc{display:flex;flex-wrap:wrap;gap:.35rem .9rem;font-size:.9rem;margin:.6rem 0 0}
.verdict-header{border-radius:10px;padding:14px 16px;border-left:8px solid var(--muted);background:var(--panel)}
.verdict-header.verdict-block{border-color:var(--block);background:var(--block-bg)}
.verdict-header.verdict-watch{border-color:var(--watch-fill);background:var(--watch-bg)}
.verdict-header.verdict-pass{border-color:var(--pass);background:var(--pass-bg)}
.eyebrow{margin:0;font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.verdict{font-weight:800;letter-spacing:.04em}
.verdict-block .verdict{color:var(--block)}.verdict-watch .verdict{color:var(--watch)}.verdict-pass .verdict{color:var(--pass)}
.file-name{font-weight:600}
.readiness{font-weight:600;margin:.2rem 0}
.counts{margin:.3rem 0 0;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.count{font-weight:700;padding:.05rem .5rem;border-radius:999px;background:var(--bg)}
.count.sev-block{color:var(--block)}.count.sev-watch{color:var(--watch)}.count.none{color:var(--muted);font-weight:600}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:.2rem 1rem;margin:.8rem 0}
.facts div{min-width:0}.facts dt{font-size:.78rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}.facts dd{margin:0}
.warnings{background:var(--watch-bg);border-radius:6px;padding:.5rem .5rem .5rem 1.6rem}
.badge{display:inline-block;font-size:.75rem;font-weight:800;letter-spacing:.04em;padding:.05rem .45rem;border-radius:4px;color:#fff;background:var(--muted)}
.badge.sev-block{background:var(--block)}.badge.sev-watch{background:var(--watch-fill);color:#1a1d21}.badge.sev-pass{background:var(--pass)}
.chart{margin:0}
.chart svg{display:block;overflow:hidden}
.chart figcaption{font-size:.85rem;color:var(--muted);margin-top:.2rem}
.key::before{content:"";display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px;vertical-align:-.05em;background:currentColor}
.key{margin-right:.5rem;white-space:nowrap}
.key.sev-block{color:var(--block)}.key.sev-watch{color:var(--watch)}
.key.momentary{color:var(--momentary)}.key.short-term{color:var(--short-term)}.key.target{color:var(--target)}
.key.wave-peak{color:var(--wave)}.key.wave-rms{color:var(--wave-rms)}
.track{fill:var(--panel);stroke:var(--line)}
.grid{stroke:var(--line);stroke-width:1;vector-effect:non-scaling-stroke}
.axis{font-size:11px;fill:var(--muted);paint-order:stroke;stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}
.bar{stroke:var(--bg);stroke-width:1}
.sev-block .bar{fill:var(--block)}.sev-watch .bar{fill:var(--watch-fill)}
.bar-label{font-size:11px;font-weight:700;fill:var(--fg);paint-order:stroke;stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}
.momentary{fill:none;stroke:var(--momentary);stroke-width:1.2;vector-effect:non-scaling-stroke}
.short-term{fill:none;stroke:var(--short-term);stroke-width:2;vector-effect:non-scaling-stroke}
.target{stroke:var(--target);stroke-width:1.5;stroke-dasharray:6 4}
.target-label{fill:var(--target);font-weight:600}
.wave-peak{fill:var(--wave);opacity:.55}.wave-rms{fill:var(--wave-rms);opacity:.85}
.contact-sheet{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}
.still-card{margin:0;min-width:0;border:1px solid var(--line);border-top:4px solid var(--muted);border-radius:6px;overflow:hidden;background:var(--panel)}
.still-card.sev-block{border-top-color:var(--block)}.still-card.sev-watch{border-top-color:var(--watch-fill)}
.still{position:relative;line-height:0;background:#000}
.still img{display:block;width:100%;height:auto}
.still .overlay{position:absolute;inset:0;width:100%;height:100%}
.region{fill:none;stroke-width:3}
.sev-block .region{stroke:#ff3b30}.sev-watch .region{stroke:#ffcc00}
.region-padding{fill:rgba(255,59,48,.18);stroke-dasharray:6 3}
.sev-watch .region-padding{fill:rgba(255,204,0,.18)}
.still-card figcaption{padding:.4rem .55rem;font-size:.85rem;line-height:1.4}
.flags{display:grid;gap:10px}
.flag{border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:6px;padding:.55rem .75rem;min-width:0}
.flag.sev-block{border-left-color:var(--block)}.flag.sev-watch{border-left-color:var(--watch-fill)}
.flag header{display:flex;flex-wrap:wrap;gap:.4rem;align-items:baseline}
.flag-id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.gate{color:var(--muted);font-weight:600}
.when{margin:.2rem 0;font-size:.88rem;color:var(--muted)}
.summary{margin:.25rem 0;font-weight:600}
.repair{margin:.4rem 0}
.repair dt{font-weight:700;font-size:.85rem;margin-top:.3rem}.repair dd{margin:0;min-width:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;background:var(--panel);border:1px solid var(--line);border-radius:3px;padding:0 .2em;overflow-wrap:anywhere}
.evidence summary{cursor:pointer;font-size:.88rem;color:var(--muted)}
.kv{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.1rem .8rem;font-size:.88rem;margin:.3rem 0}
.kv dt{color:var(--muted);min-width:0}.kv dd{margin:0;min-width:0}
.table-scroll{overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:6px;-webkit-overflow-scrolling:touch}
table.gates{border-collapse:collapse;width:100%;min-width:640px;font-size:.88rem;overflow-wrap:normal}
table.gates th,table.gates td{text-align:left;vertical-align:top;padding:.4rem .55rem;border-bottom:1px solid var(--line)}
table.gates thead th{background:var(--panel);position:sticky;top:0}
table.gates td:nth-child(3),table.gates td:nth-child(4){overflow-wrap:anywhere}
table.gates td:nth-child(3){min-width:12rem}
.measurements{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:0 1.1rem}
.measurements li{min-width:0}
.key-name{color:var(--muted)}
.status{font-weight:700;text-transform:uppercase;font-size:.78rem}
.status-block .status{color:var(--block)}.status-watch .status{color:var(--watch)}.status-pass .status{color:var(--pass)}.status-error .status{color:var(--block)}.status-skipped .status,.status-unmeasured .status{color:var(--muted)}
.steps{padding-left:1.3rem}
footer{margin:2rem 0 1rem;font-size:.82rem;color:var(--muted)}
@media (max-width:639px){
table.gates{min-width:0}
table.gates thead{display:none}
table.gates tbody,table.gates tr,table.gates td{display:block}
table.gates tr{display:grid;grid-template-columns:1fr auto;gap:.1rem .6rem;padding:.5rem .6rem;border-bottom:1px solid var(--line)}
table.gates th,table.gates td{border:0;padding:0}
table.gates td:nth-child(2){text-align:right}
table.gates td:nth-child(3),table.gates td:nth-child(4){grid-column:1/-1}
table.gates td:empty{display:none}
table.gates td:nth-child(3){min-width:0}
}
@media (min-width:640px){.repair{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .7rem}.repair dt{margin:0}}
@media (min-width:720px){main{padding:20px 28px}h1{font-size:1.7rem}}
@media print{.chart svg{break-inside:avoid}.flag,.still-card{break-inside:avoid}}
`;
