/**
 * The hand-off link drawn as a QR code: encoded here by uqr and drawn as one SVG path, so that
 * nothing leaves the page to draw it. Part of the lazily loaded hand-off file.
 */
import type { TemplateResult, html as litHtml } from 'lit';
import { encode } from 'uqr';

/** Modules of light margin around the code, as the QR standard asks. */
const QUIET_ZONE = 4;

/** The QR code of `text` as one SVG path of its dark modules (each row's runs), `size` modules a side. */
function qrPath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  let path = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      path += `M${start} ${y}h${x - start}v1h${start - x}z`;
    }
  }
  return { size, path };
}

/** The QR code of `url`, black on white with its margin, as scanners need whatever the theme. */
export function qrCode(html: typeof litHtml, url: string, label: string): TemplateResult {
  const { size, path } = qrPath(url);
  const side = size + 2 * QUIET_ZONE;
  return html`<svg
    class="qr"
    part="handoff-qr"
    viewBox="${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}"
    role="img"
    aria-label=${label}
    shape-rendering="crispEdges"
  >
    <rect x=${-QUIET_ZONE} y=${-QUIET_ZONE} width=${side} height=${side} fill="#ffffff"></rect>
    <path d=${path} fill="#000000"></path>
  </svg>`;
}
