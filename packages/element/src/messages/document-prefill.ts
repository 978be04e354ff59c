/**
 * What the CPF step says of the data read from the document (a session's `prefillFromDocument`).
 * They come with the photo steps: only a person who photographed the document reads them.
 */
import type { OnboardingLocale } from './index.js';

export interface PrefillTexts {
  reading: string;
  intro: string;
  cpf: string;
  name: string;
  show: string;
  confirm: string;
  correct: string;
  /** While the document is read: the person may type the CPF instead of waiting. */
  typeIt: string;
  /** Said when the data arrives. */
  read: string;
  noCpf: string;
  unreadable: string;
  failed: string;
}

export const prefillTexts: Record<OnboardingLocale, PrefillTexts> = {
  'pt-BR': {
    reading: 'Lendo os dados do seu documento…',
    intro: 'Lemos estes dados no seu documento. Confira se estão corretos.',
    cpf: 'CPF',
    name: 'Nome',
    show: 'Mostrar o CPF',
    confirm: 'Confirmar',
    correct: 'Corrigir',
    typeIt: 'Digitar o CPF',
    read: 'Dados lidos do documento: confira o CPF e o nome.',
    noCpf: 'Não conseguimos ler o CPF no documento. Digite o seu CPF abaixo.',
    unreadable: 'Não conseguimos ler os dados do documento. Digite o seu CPF abaixo.',
    failed: 'Não foi possível ler os dados do documento agora. Digite o seu CPF abaixo.',
  },
  en: {
    reading: 'Reading the details on your document…',
    intro: 'We read these details on your document. Check that they are right.',
    cpf: 'CPF',
    name: 'Name',
    show: 'Show the CPF',
    confirm: 'Confirm',
    correct: 'Correct',
    typeIt: 'Type the CPF',
    read: 'Details read from the document: check the CPF and the name.',
    noCpf: 'We could not read the CPF on the document. Type your CPF below.',
    unreadable: 'We could not read the details on the document. Type your CPF below.',
    failed: 'The details on the document could not be read just now. Type your CPF below.',
  },
  es: {
    reading: 'Leyendo los datos de su documento…',
    intro: 'Leímos estos datos en su documento. Verifique que sean correctos.',
    cpf: 'CPF',
    name: 'Nombre',
    show: 'Mostrar el CPF',
    confirm: 'Confirmar',
    correct: 'Corregir',
    typeIt: 'Escribir el CPF',
    read: 'Datos leídos del documento: verifique el CPF y el nombre.',
    noCpf: 'No pudimos leer el CPF en el documento. Escriba su CPF abajo.',
    unreadable: 'No pudimos leer los datos del documento. Escriba su CPF abajo.',
    failed: 'No se pudieron leer los datos del documento ahora. Escriba su CPF abajo.',
  },
};
