/**
 * The screenshot gallery of `<onboarding-flow>`: every step and outcome, in every engine, at a
 * phone's and a laptop's width, in one folder (test/artifacts/gallery/<engine>/<step>-<width>.png)
 * with an index page (test/artifacts/gallery/index.html: a row per step, a column per engine and
 * width) rewritten after every picture, so a run that stops half-way still leaves a page to open.
 *
 * The test page holds a same-origin iframe (`/__gallery-frame`, which loads the element) fixed at
 * the top left of the window; the test drives the element inside it and sets the frame's size
 * before each picture: the frame is the element's viewport, so its media queries see 390 or 1366
 * in every engine, WebKit's MiniBrowser included (its window never gets narrower than 447 px).
 * Chromium and Firefox shoot the frame's box; WebKit shoots its viewport, cut here to the frame.
 * Pages that refuse to be framed (the hosted pages: `frame-ancestors 'none'`) are shot in a
 * window of their own (`gallery-page`); WebKit's is never narrower than 447 px, and the index
 * labels every picture with its real size.
 *
 * Server commands:
 * - `gallery-reset` `{ }`: removes this engine's pictures (a stale one must not stand in for a missing one);
 * - `gallery-shot` `{ step, order, width, height }`: the frame's box as <step>-<width>.png; rejects
 *   when no picture could be taken (the test then fails);
 * - `gallery-page` `{ step, order, url, sizes: [{ width, height }] }`: starts taking the same from `url`
 *   opened in a window of its own, at each size; `gallery-wait` answers 'done' once it is taken (and
 *   rejects if it could not be), else 'pending' after 10 s: a new window can take longer than
 *   the 20 s a browser waits for a command's answer;
 * - `gallery-list` `{ }`: the pictures this engine has.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { sessionEngine } from './wtr-launchers.mjs';

const GALLERY_FRAME_PATH = '/__gallery-frame';
const ENGINES = ['chromium', 'firefox', 'webkit'];
const WIDTHS = [390, 1366];
/** MiniBrowser's toolbar above the page (webkit.mjs TOOLBAR_HEIGHT). */
const WEBKIT_TOOLBAR = 38;

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png) {
  if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452) return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * The top-left `width` x `height` of an 8-bit RGB or RGBA PNG (non-interlaced, as browsers write
 * their screenshots), as a new PNG.
 */
function cropPng(png, width, height) {
  const size = pngSize(png);
  const colourType = png[25];
  const bpp = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  if (!size || png[24] !== 8 || !bpp || png[28] !== 0) throw new Error('gallery: a screenshot that is not an 8-bit RGB(A) PNG');
  const idat = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = size.width * bpp;
  const w = Math.min(width, size.width);
  const h = Math.min(height, size.height);
  const out = Buffer.alloc(h * (w * bpp + 1));
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < h; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0;
      const b = previous[x];
      const c = x >= bpp ? previous[x - bpp] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      line[x] = (line[x] + predictor) & 0xff;
    }
    out[y * (w * bpp + 1)] = 0;
    line.copy(out, y * (w * bpp + 1) + 1, 0, w * bpp);
    previous = line;
  }
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.from(png.subarray(16, 29));
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(out)), chunk('IEND', Buffer.alloc(0))]);
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The index page: one row per step (in the order the test walks them), one column per engine and width. */
async function writeGalleryIndex(dir) {
  const order = JSON.parse(await readFile(join(dir, 'steps.json'), 'utf8').catch(() => '{}'));
  const cells = new Map();
  for (const engine of ENGINES) {
    const names = await readdir(join(dir, engine)).catch(() => []);
    for (const name of names) {
      const m = /^(.+)-(\d+)\.png$/.exec(name);
      if (!m) continue;
      // Another engine may be clearing its folder at this moment (gallery-reset): a file gone is left out.
      const png = await readFile(join(dir, engine, name)).catch(() => null);
      if (!png) continue;
      const size = pngSize(png);
      cells.set(`${engine}/${m[1]}/${m[2]}`, { file: `${engine}/${name}`, size });
      if (!(m[1] in order)) order[m[1]] = 1e6;
    }
  }
  const steps = Object.keys(order).sort((a, b) => order[a] - order[b] || a.localeCompare(b));
  const head = ENGINES.flatMap((e) => WIDTHS.map((w) => `<th scope="col">${e}<br>${w} px</th>`)).join('');
  const rows = steps.map((step) => {
    const tds = ENGINES.flatMap((engine) =>
      WIDTHS.map((width) => {
        const cell = cells.get(`${engine}/${step}/${width}`);
        if (!cell) return `<td class="missing">${escapeHtml(`${step}: no ${engine} picture at ${width} px`)}</td>`;
        const real = cell.size ? `${cell.size.width}x${cell.size.height}` : 'unreadable PNG';
        const label = `${step} · ${engine} · ${width} px (${real})`;
        return `<td><a href="${escapeHtml(cell.file)}"><img src="${escapeHtml(cell.file)}" alt="${escapeHtml(label)}" loading="lazy"></a><span>${escapeHtml(label)}</span></td>`;
      }),
    );
    return `<tr><th scope="row">${escapeHtml(step)}</th>${tds.join('')}</tr>`;
  });
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>onboarding-flow gallery</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 4px; vertical-align: top; }
thead th { position: sticky; top: 0; background: #fff; }
td img { display: block; width: 180px; height: auto; }
td span { display: block; max-width: 180px; font-size: 12px; color: #444; }
td.missing { background: #fee; color: #900; max-width: 180px; }
</style>
</head>
<body>
<h1>onboarding-flow gallery</h1>
<p>Written by the gallery test (packages/element/src/onboarding-flow/gallery.gallery.spec.ts). Each picture is labelled with its step, engine, width asked for and real size; a picture opens full size on a click.</p>
<table>
<thead><tr><th scope="col">step</th>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</body>
</html>
`;
  await writeFile(join(dir, 'index.html'), html);
}

/** The frame's box as PNG bytes, in each engine's own way. */
async function shootFrame(session, engine, width, height) {
  if (engine === 'webkit') {
    // WebKitWebDriver's element screenshot of a fixed frame lands off by the window's height less
    // the frame's: the viewport's picture, cut to the frame at the top left, is exact.
    return cropPng(await session.browser.getSession(session.id).screenshot(), width, height);
  }
  const page = session.browser.getPage(session.id);
  const png = await page.screenshot({ clip: { x: 0, y: 0, width, height } });
  return Buffer.from(png);
}

/** `url` in a window of its own at `width` x `height`, as PNG bytes. */
async function shootPage(session, engine, url, width, height) {
  // A picture of an error page is no picture of the page (WebDriver cannot tell the status).
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`gallery: ${url} answered ${res.status}`);
  if (engine === 'webkit') {
    const wk = session.browser.getSession(session.id);
    const home = await wk.cmd('GET', '/window');
    const { handle } = await wk.cmd('POST', '/window/new', { type: 'window' });
    await wk.cmd('POST', '/window', { handle });
    try {
      await wk.setWindowRect({ width, height: height + WEBKIT_TOOLBAR });
      await wk.cmd('POST', '/url', { url });
      await wk.execute(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return await wk.screenshot();
    } finally {
      await wk.cmd('DELETE', '/window').catch(() => undefined);
      await wk.cmd('POST', '/window', { handle: home });
    }
  }
  const page = session.browser.getPage(session.id);
  const other = engine === 'chromium' ? await page.context().newPage() : await page.browser().newPage();
  try {
    if (engine === 'chromium') await other.setViewportSize({ width, height });
    else await other.setViewport({ width, height });
    await other.goto(url);
    await other.evaluate(() => document.fonts.ready);
    return Buffer.from(await other.screenshot());
  } finally {
    await other.close();
  }
}

/** The Web Test Runner plugin: the frame page and the gallery's server commands. `root` is the repository's. */
export function galleryPlugin({ root }) {
  const dir = join(root, 'test', 'artifacts', 'gallery');
  // One write of steps.json and index.html at a time: the three engines shoot side by side.
  let writing = Promise.resolve();
  const record = (step, order) => {
    writing = writing.then(async () => {
      const steps = JSON.parse(await readFile(join(dir, 'steps.json'), 'utf8').catch(() => '{}'));
      if (typeof order === 'number') steps[step] = order;
      await writeFile(join(dir, 'steps.json'), JSON.stringify(steps, null, 1));
      await writeGalleryIndex(dir);
    });
    // The index is for a person; a failure to write it must not stand for a missing picture.
    writing = writing.catch((error) => console.error(`gallery: index.html not written: ${error.message}`));
    return writing;
  };
  const save = async (engine, step, width, png) => {
    if (!pngSize(png)) throw new Error(`gallery: the ${engine} picture of ${step} at ${width} px is not a PNG`);
    await mkdir(join(dir, engine), { recursive: true });
    const file = join(dir, engine, `${step}-${width}.png`);
    await writeFile(file, png);
    return `test/artifacts/gallery/${engine}/${step}-${width}.png`;
  };
  /** Each engine's `gallery-page` under way. */
  const jobs = new Map();
  return {
    name: 'onboarding-kit-gallery',
    serve(context) {
      if (context.path !== GALLERY_FRAME_PATH) return undefined;
      return {
        body: '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>gallery frame</title><style>html,body{margin:0;background:#fff}</style><script type="module" src="/packages/element/src/index.ts"></script></head><body></body></html>',
        type: 'html',
      };
    },
    async executeCommand({ command, payload, session }) {
      if (!command.startsWith('gallery-')) return undefined;
      const engine = sessionEngine(session);
      if (command === 'gallery-reset') {
        await rm(join(dir, engine), { recursive: true, force: true });
        await mkdir(join(dir, engine), { recursive: true });
        await record('', undefined);
        return true;
      }
      if (command === 'gallery-list') {
        return (await readdir(join(dir, engine)).catch(() => [])).filter((n) => n.endsWith('.png')).sort();
      }
      if (command === 'gallery-wait') {
        const job = jobs.get(engine);
        if (!job) throw new Error('gallery: no gallery-page under way');
        return Promise.race([job.then(() => 'done'), new Promise((r) => setTimeout(() => r('pending'), 10_000))]);
      }
      const step = String(payload?.step ?? '').replace(/[^a-z0-9-]+/gi, '-');
      if (command === 'gallery-page') {
        const sizes = Array.isArray(payload?.sizes) ? payload.sizes : [];
        if (!step || !sizes.length) throw new Error('gallery: gallery-page needs step and sizes');
        const job = (async () => {
          for (const { width, height } of sizes) {
            await save(engine, step, width, await shootPage(session, engine, String(payload.url), width, height));
            await record(step, payload?.order);
          }
        })();
        job.catch(() => undefined);
        jobs.set(engine, job);
        return 'started';
      }
      const width = Number(payload?.width);
      const height = Number(payload?.height);
      if (!step || !width || !height) throw new Error(`gallery: ${command} needs step, width and height`);
      if (command !== 'gallery-shot') return undefined;
      const png = await shootFrame(session, engine, width, height);
      const path = await save(engine, step, width, png);
      await record(step, payload?.order);
      return path;
    },
  };
}
