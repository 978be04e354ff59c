/**
 * What a document photo's review says when the reader found something worth a second look
 * (document-hints/hints.ts). Advice, in a polite tone: the person can always go on. They come
 * with the photo steps, so the first load carries none of them.
 */
import type { HintKind } from '../document-hints/hints.js';
import type { OnboardingLocale } from './index.js';

export interface HintTexts {
  /** One line per hint; `other-document` names the kind read (its long name). */
  lines: Omit<Record<HintKind, string>, 'other-document'> & { 'other-document': (name: string) => string };
  /** Said after the hints: nothing is wrong if the person knows better. */
  goOn: string;
  switchTo: (type: string) => string;
  swapSides: string;
  swapped: string;
  retake: string;
  continueAnyway: string;
}

export const hintTexts: Record<OnboardingLocale, HintTexts> = {
  'pt-BR': {
    lines: {
      'looks-like-back':
        'Esta foto parece ser do verso do documento: o código que aparece nela fica no verso. Confira se fotografou a frente.',
      'sides-swapped': 'Parece que a frente e o verso ficaram trocados: o código do verso apareceu na foto da frente.',
      'other-document': (name) => `Este documento parece ser outro: ${name}.`,
      'other-person': 'O CPF lido no documento é diferente do CPF que você digitou. Confira se o documento é o seu.',
    },
    goOn: 'Se estiver tudo certo, você pode continuar mesmo assim.',
    switchTo: (type) => `Trocar para ${type}`,
    swapSides: 'Trocar frente e verso',
    swapped: 'Frente e verso trocados.',
    retake: 'Tirar de novo',
    continueAnyway: 'Continuar mesmo assim',
  },
  en: {
    lines: {
      'looks-like-back':
        'This photo looks like the back of the document: the code it shows is printed on the back. Check that you photographed the front.',
      'sides-swapped': 'The front and back seem to be the wrong way round: the back’s code showed up in the front photo.',
      'other-document': (name) => `This looks like another document: ${name}.`,
      'other-person': 'The CPF read on the document is not the CPF you typed. Check that the document is yours.',
    },
    goOn: 'If everything is right, you can go on anyway.',
    switchTo: (type) => `Switch to ${type}`,
    swapSides: 'Swap front and back',
    swapped: 'Front and back swapped.',
    retake: 'Take it again',
    continueAnyway: 'Continue anyway',
  },
  es: {
    lines: {
      'looks-like-back':
        'Esta foto parece ser del reverso del documento: el código que muestra está en el reverso. Verifique que fotografió el frente.',
      'sides-swapped': 'Parece que el frente y el reverso quedaron invertidos: el código del reverso apareció en la foto del frente.',
      'other-document': (name) => `Este documento parece ser otro: ${name}.`,
      'other-person': 'El CPF leído en el documento es distinto del CPF que escribió. Verifique que el documento sea suyo.',
    },
    goOn: 'Si todo está bien, puede continuar de todos modos.',
    switchTo: (type) => `Cambiar a ${type}`,
    swapSides: 'Intercambiar frente y reverso',
    swapped: 'Frente y reverso intercambiados.',
    retake: 'Tomarla de nuevo',
    continueAnyway: 'Continuar de todos modos',
  },
};
