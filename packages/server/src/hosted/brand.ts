/**
 * The integrator's look on the hosted capture page (docs/hosted-page.md#branding): a name, a logo
 * file and a few colours, checked once at start so that a bad value stops the companion with a
 * message naming it, never a page that half works. The logo is read into memory, its type told by
 * its first bytes (PNG, JPEG, WebP or SVG), its size limited; the page serves it at a path named
 * by its hash.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { CompanionConfigError } from '../config/config-error.js';

/** The brand as configured: every member optional; the logo is a file path. */
export interface BrandInput {
  /** The integrator's name, shown in the page's header and title (1 to 60 characters). */
  name?: string;
  /** A logo file: PNG, JPEG, WebP or SVG, at most {@link BRAND_LOGO_MAX_BYTES}. */
  logo?: string;
  /** The main colour: buttons, links, progress (`#rgb` or `#rrggbb`). */
  color?: string;
  /** Text on that colour (default: white or near black, whichever reads better on it). */
  colorOnPrimary?: string;
  /** The page's background around the flow. */
  background?: string;
  /** Body text. */
  textColor?: string;
  /** Corner radius of buttons, fields and the flow's card, in px (0 to 32). */
  radius?: number;
}

export const BRAND_FIELDS = ['name', 'logo', 'color', 'colorOnPrimary', 'background', 'textColor', 'radius'] as const;
export type BrandField = (typeof BRAND_FIELDS)[number];

/** The largest logo accepted: it is held in memory and sent with every page. */
export const BRAND_LOGO_MAX_BYTES = 256 * 1024;

export interface BrandLogo {
  bytes: Uint8Array;
  type: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
  /** File extension of its served path. */
  ext: 'png' | 'jpg' | 'webp' | 'svg';
  /** First 16 hex characters of its SHA-256: its served path changes with its content. */
  hash: string;
}

/** The brand ready to serve. */
export interface Brand {
  name?: string;
  logo?: BrandLogo;
  color?: string;
  colorOnPrimary?: string;
  background?: string;
  textColor?: string;
  radius?: number;
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Letters of any script, digits, spaces and a few marks: nothing that could open markup or a URL. */
const NAME = /^[\p{L}\p{M}\p{N} .,'’&()\-+/]{1,60}$/u;

/** How a field is named in messages: `brand.color` for the options, `ONBOARDING_BRAND_COLOR` for `npm start`. */
export type BrandLabel = (field: BrandField) => string;
const optionLabel: BrandLabel = (field) => `brand.${field}`;

/** Problems with the brand's values (no I/O: the logo file is looked at by {@link loadBrand}). */
export function checkBrandFields(input: BrandInput, label: BrandLabel = optionLabel): string[] {
  const problems: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return ['the brand must be an object'];
  for (const key of Object.keys(input)) {
    if (!(BRAND_FIELDS as readonly string[]).includes(key))
      problems.push(`the brand has an unknown member "${key.slice(0, 40)}" (known: ${BRAND_FIELDS.join(', ')})`);
  }
  if (input.name !== undefined && (typeof input.name !== 'string' || !NAME.test(input.name))) {
    problems.push(`${label('name')} must be 1 to 60 letters, digits, spaces or . , ' & ( ) - + /`);
  }
  if (input.logo !== undefined && (typeof input.logo !== 'string' || input.logo.trim() === ''))
    problems.push(`${label('logo')} must be a file path`);
  for (const field of ['color', 'colorOnPrimary', 'background', 'textColor'] as const) {
    const value = input[field];
    if (value !== undefined && (typeof value !== 'string' || !HEX_COLOR.test(value))) {
      problems.push(`${label(field)} must be a colour written #rgb or #rrggbb (got ${JSON.stringify(String(value).slice(0, 40))})`);
    }
  }
  if (
    input.radius !== undefined &&
    (typeof input.radius !== 'number' || !Number.isInteger(input.radius) || input.radius < 0 || input.radius > 32)
  ) {
    problems.push(`${label('radius')} must be a whole number of pixels from 0 to 32`);
  }
  // A main colour that white and black text both read badly on would leave the buttons illegible.
  if (problems.length === 0 && input.color) {
    const on = input.colorOnPrimary ?? readableOn(input.color);
    const ratio = contrast(input.color, on);
    if (ratio < 4.5)
      problems.push(
        `${label('color')} ${input.color} with text ${on} has a contrast of ${ratio.toFixed(2)}:1; buttons need at least 4.5:1 (pick a darker or lighter colour${input.colorOnPrimary ? `, or another ${label('colorOnPrimary')}` : ''})`,
      );
  }
  if (problems.length === 0 && input.textColor) {
    // Text sits on the white of the header, the cards and the flow.
    const ratio = contrast(input.textColor, '#ffffff');
    if (ratio < 4.5)
      problems.push(`${label('textColor')} ${input.textColor} on white has a contrast of ${ratio.toFixed(2)}:1; text needs at least 4.5:1`);
  }
  return problems;
}

/**
 * Checks the brand and reads its logo: the {@link Brand} to serve, or a {@link CompanionConfigError}
 * that lists every problem, each named with `label`.
 */
export function loadBrand(input: BrandInput, label: BrandLabel = optionLabel): Brand {
  const problems = checkBrandFields(input, label);
  let logo: BrandLogo | undefined;
  if (problems.length === 0 && input.logo !== undefined) {
    const read = readLogo(input.logo);
    if (typeof read === 'string') problems.push(`${label('logo')}: ${read}`);
    else logo = read;
  }
  if (problems.length) throw new CompanionConfigError(`Invalid brand of the hosted page: ${problems.join('; ')}.`);
  const brand: Brand = {};
  if (input.name !== undefined) brand.name = input.name;
  if (logo) brand.logo = logo;
  if (input.color !== undefined) {
    brand.color = input.color.toLowerCase();
    brand.colorOnPrimary = (input.colorOnPrimary ?? readableOn(input.color)).toLowerCase();
  }
  if (input.background !== undefined) brand.background = input.background.toLowerCase();
  if (input.textColor !== undefined) brand.textColor = input.textColor.toLowerCase();
  if (input.radius !== undefined) brand.radius = input.radius;
  return brand;
}

/**
 * A brand file (`ONBOARDING_BRAND_FILE`): JSON with the members of {@link BrandInput}; a relative
 * `logo` is relative to the file's own folder. Throws a {@link CompanionConfigError} naming the file.
 */
export function readBrandFile(path: string): BrandInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CompanionConfigError(`The brand file ${path} could not be read (${(e as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CompanionConfigError(`The brand file ${path} is not JSON: ${(e as Error).message}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CompanionConfigError(`The brand file ${path} must hold a JSON object with some of: ${BRAND_FIELDS.join(', ')}.`);
  }
  const input = { ...(parsed as BrandInput) };
  if (typeof input.logo === 'string' && input.logo.trim() !== '' && !isAbsolute(input.logo))
    input.logo = resolve(dirname(path), input.logo);
  return input;
}

/** The logo's bytes and type, or what is wrong with the file. */
function readLogo(path: string): BrandLogo | string {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) return `${path} is not a file`;
    size = info.size;
  } catch (e) {
    return `${path} could not be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (size > BRAND_LOGO_MAX_BYTES)
    return `${path} has ${size} bytes; a logo may have at most ${BRAND_LOGO_MAX_BYTES} (${BRAND_LOGO_MAX_BYTES / 1024} KiB)`;
  if (size === 0) return `${path} is empty`;
  const bytes = new Uint8Array(readFileSync(path));
  const kind = logoKind(bytes);
  if (!kind) return `${path} is not a PNG, JPEG, WebP or SVG image (told by its content, not its name)`;
  return { bytes, ...kind, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

function logoKind(b: Uint8Array): Pick<BrandLogo, 'type' | 'ext'> | null {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { type: 'image/png', ext: 'png' };
  if (starts(0xff, 0xd8, 0xff)) return { type: 'image/jpeg', ext: 'jpg' };
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return { type: 'image/webp', ext: 'webp' };
  // SVG is text: an <svg> root after an optional XML declaration, comments and a doctype. Served as an
  // <img>, its scripts never run; the CSP of its own answer (default-src 'none') is a second lock.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, 4096)).replace(/^\uFEFF/, '');
  if (/^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head))
    return { type: 'image/svg+xml', ext: 'svg' };
  return null;
}

/** White or near black: whichever contrasts more with `color`. */
function readableOn(color: string): string {
  return contrast(color, '#ffffff') >= contrast(color, '#111111') ? '#ffffff' : '#111111';
}

/** WCAG contrast ratio of two `#rgb`/`#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(hex: string): number {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  const [r, g, bl] = [0, 2, 4].map((i) => {
    const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
}
