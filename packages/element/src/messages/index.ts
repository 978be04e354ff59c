import { en } from './en.js';
import { es } from './es.js';
import { ptBR, type Messages } from './pt-BR.js';

export type { Messages } from './pt-BR.js';
export { ptBR, en, es };

export const LOCALES = ['pt-BR', 'en', 'es'] as const;
export type OnboardingLocale = (typeof LOCALES)[number];

const CATALOGS: Record<OnboardingLocale, Messages> = { 'pt-BR': ptBR, en, es };

/** Maps any BCP 47 tag to a supported locale: `en-GB` -> `en`, `es-AR` -> `es`, anything else -> `pt-BR`. */
export function resolveLocale(tag: string | null | undefined): OnboardingLocale {
  const lower = (tag ?? '').trim().toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'es' || lower.startsWith('es-')) return 'es';
  return 'pt-BR';
}

export function messagesFor(tag: string | null | undefined): Messages {
  return CATALOGS[resolveLocale(tag)];
}
