/**
 * The demo's settings (locale, document types, theme) as plain data: read from and written to the
 * page's query string, so a reload keeps them and a link shares them, and applied to the element
 * through its public surface only (attributes and CSS custom properties).
 * Pure except `applySettings`, which touches only the element it is given.
 */
export const DEMO_LOCALES = ['pt-BR', 'en', 'es'] as const;
export type DemoLocale = (typeof DEMO_LOCALES)[number];

export const DEMO_DOCUMENT_TYPES = ['CNH', 'RG', 'RNE', 'PASSPORT'] as const;

/** Theme settings: query key -> the element's CSS custom property and its default. */
export const THEME = {
  primary: { property: '--onboarding-color-primary', fallback: '#0b57a4', label: 'Primary' },
  onPrimary: { property: '--onboarding-color-on-primary', fallback: '#ffffff', label: 'Text on primary' },
  text: { property: '--onboarding-color-text', fallback: '#1b1f24', label: 'Text' },
  bg: { property: '--onboarding-color-bg', fallback: '#ffffff', label: 'Background' },
  surface: { property: '--onboarding-color-surface', fallback: '#f2f4f7', label: 'Surface' },
} as const;
export type ThemeKey = keyof typeof THEME;
export const THEME_KEYS = Object.keys(THEME) as ThemeKey[];

export const RADIUS = { property: '--onboarding-radius', fallback: 8, min: 0, max: 24 } as const;

export interface DemoSettings {
  locale: DemoLocale;
  documentTypes: string[];
  colours: Record<ThemeKey, string>;
  radius: number;
}

export const DEFAULT_SETTINGS: DemoSettings = {
  locale: 'pt-BR',
  documentTypes: ['CNH', 'RG'],
  colours: Object.fromEntries(THEME_KEYS.map((k) => [k, THEME[k].fallback])) as Record<ThemeKey, string>,
  radius: RADIUS.fallback,
};

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** Settings from a query string; anything missing or invalid keeps its default. */
export function readSettings(query: string | URLSearchParams): DemoSettings {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const locale = params.get('locale');
  const types = (params.get('types') ?? '')
    .split(',')
    .map((t) => t.trim().toUpperCase())
    .filter((t): t is (typeof DEMO_DOCUMENT_TYPES)[number] => (DEMO_DOCUMENT_TYPES as readonly string[]).includes(t));
  const colours = { ...DEFAULT_SETTINGS.colours };
  for (const key of THEME_KEYS) {
    const value = params.get(key);
    if (value && HEX_COLOUR.test(value)) colours[key] = value.toLowerCase();
  }
  const radius = Number(params.get('radius'));
  return {
    locale: (DEMO_LOCALES as readonly string[]).includes(locale ?? '') ? (locale as DemoLocale) : DEFAULT_SETTINGS.locale,
    documentTypes: types.length ? [...new Set(types)] : [...DEFAULT_SETTINGS.documentTypes],
    colours,
    radius: params.has('radius') && Number.isInteger(radius) && radius >= RADIUS.min && radius <= RADIUS.max ? radius : RADIUS.fallback,
  };
}

/** The query string for `settings`, holding only what differs from the defaults. */
export function writeSettings(settings: DemoSettings): string {
  const params = new URLSearchParams();
  if (settings.locale !== DEFAULT_SETTINGS.locale) params.set('locale', settings.locale);
  const types = settings.documentTypes.join(',');
  if (types !== DEFAULT_SETTINGS.documentTypes.join(',')) params.set('types', types);
  for (const key of THEME_KEYS) if (settings.colours[key] !== DEFAULT_SETTINGS.colours[key]) params.set(key, settings.colours[key]);
  if (settings.radius !== DEFAULT_SETTINGS.radius) params.set('radius', String(settings.radius));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * Applies the settings to a `<onboarding-flow>` through its public surface. Custom properties are
 * set through the CSSOM (`style.setProperty`), which a CSP without 'unsafe-inline' allows.
 */
export function applySettings(element: HTMLElement, settings: DemoSettings): void {
  element.setAttribute('locale', settings.locale);
  element.setAttribute('document-types', settings.documentTypes.join(','));
  for (const key of THEME_KEYS) element.style.setProperty(THEME[key].property, settings.colours[key]);
  element.style.setProperty(RADIUS.property, `${settings.radius}px`);
}
