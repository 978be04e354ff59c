import { en } from './en.js';
import { es } from './es.js';
import { resolveLocale, type SessionLocale as OnboardingLocale } from '@onboarding-kit/contract';
import { ptBR, type Messages } from './pt-BR.js';

export type { Messages } from './pt-BR.js';
export { ptBR, en, es };

export { SESSION_LOCALES as LOCALES, resolveLocale, type SessionLocale as OnboardingLocale } from '@onboarding-kit/contract';

const CATALOGS: Record<OnboardingLocale, Messages> = { 'pt-BR': ptBR, en, es };

export function messagesFor(tag: string | null | undefined): Messages {
  return CATALOGS[resolveLocale(tag)];
}
