/**
 * Brazilian Portuguese: the source of truth for every string the element shows or announces.
 * The `Messages` type is derived from this object, so `en` and `es` must define every key.
 */
export const ptBR = {
  flow: {
    progressLabel: 'Etapas',
    stages: { consent: 'Consentimento', data: 'Dados', document: 'Documento', selfie: 'Selfie', address: 'Endereço', review: 'Revisão' },
    side: (current: number, total: number): string => `lado ${current} de ${total}`,
    title: 'Verificação de identidade',
    back: 'Voltar',
    continue: 'Continuar',
    announceStep: (heading: string, current: number, total: number): string => `Etapa ${current} de ${total}: ${heading}`,
    partLoading: 'Preparando esta etapa…',
    partFailed: 'Não foi possível carregar esta etapa. Verifique sua internet e tente novamente.',
    /** A file of the element the page does not serve: the site's fault, never the person's connection. */
    partMissing: 'Esta página não conseguiu carregar uma parte da verificação. Avise o site; não é a sua internet.',
  },
  intro: {
    heading: 'Antes de começar',
    time: 'Leva cerca de 2 minutos.',
    needsTitle: 'O que você precisa',
    needCpf: 'Seu CPF',
    /** `types`: the document types offered, already joined ("CNH ou RG"). */
    needDocument: (types: string): string => `Um documento de identidade com foto: ${types}`,
    needLight: 'Um lugar bem iluminado',
    needCamera: 'Uma câmera, ou fotos do documento e do seu rosto',
    photosTitle: 'As fotos que você vai tirar',
    or: 'ou',
    start: 'Começar',
  },
  consent: {
    details: 'Ler detalhes',
    heading: 'Uso dos seus dados',
    what: 'Seu CPF, seu nome (opcional), fotos da frente e do verso do seu documento e uma selfie.',
    why: 'Somente para verificar que você é quem diz ser e prevenir fraudes, conforme a Lei Geral de Proteção de Dados (LGPD, Lei 13.709/2018).',
    agree: 'Li e concordo com o tratamento dos meus dados para a verificação de identidade.',
    required: 'Para continuar, marque a caixa de concordância.',
    decline: 'Agora não',
  },
  cpf: {
    heading: 'Seu CPF',
    intro: 'Digite o número do seu CPF. Seu nome é opcional.',
    label: 'CPF',
    hint: 'Somente os 11 números; a pontuação é colocada automaticamente.',
    nameLabel: 'Nome completo (opcional)',
    errorEmpty: 'Digite o seu CPF.',
    errorIncomplete: 'O CPF tem 11 números. Confira o que foi digitado.',
    errorCheckDigits: 'Este CPF não é válido: os dígitos verificadores não conferem. Confira o número no seu documento.',
    errorName: 'O nome só pode ter letras, espaços e sinais comuns (ponto, hífen, apóstrofo), até 200 caracteres.',
    headingCnpj: 'Seu CNPJ',
    labelCnpj: 'CNPJ',
    introLocked: 'Confira os seus dados. Seu nome é opcional.',
    lockedHint: 'Informado pelo serviço que pediu esta verificação; não pode ser alterado aqui.',
  },
  documentType: {
    heading: 'Tipo de documento',
    legend: 'Qual documento você vai fotografar?',
    required: 'Escolha um tipo de documento para continuar.',
    names: {
      CNH: 'CNH (Carteira Nacional de Habilitação)',
      RG: 'RG (Carteira de Identidade)',
      CIN: 'CIN (Carteira de Identidade Nacional)',
      RNE: 'RNE / CRNM (Registro Nacional de Estrangeiro)',
      PASSPORT: 'Passaporte',
    } as Record<string, string>,
  },
  capture: {
    cameraApp: 'Usar o app da câmera',
    /** The hand-off to a phone (the `handoff` attribute); its panel's texts come with it. */
    handoff: 'Continuar no celular',
    /** By the document type's code: "Frente da CNH", "Verso do RG". */
    headingFront: (type: string): string => `Frente ${type === 'CNH' || type === 'CIN' ? 'da' : 'do'} ${type}`,
    headingBack: (type: string): string => `Verso ${type === 'CNH' || type === 'CIN' ? 'da' : 'do'} ${type}`,
    headingSelfie: 'Selfie',
    headingProofOfAddress: 'Comprovante de endereço',
    guideDocument: 'Coloque o documento sobre uma superfície plana e bem iluminada, sem reflexos, e enquadre-o inteiro dentro da moldura.',
    guideSelfie: 'Olhe para a câmera, com o rosto descoberto e inteiro dentro do oval, em um lugar bem iluminado.',
    openCamera: 'Abrir câmera',
    cameraStarting: 'Abrindo a câmera…',
    autoCaptured: 'Foto tirada automaticamente.',
    chooseFile: 'Escolher uma foto dos arquivos',
    fileHint: 'JPEG, PNG ou WebP.',
    checking: 'Verificando a foto…',
    accepted: 'Foto aceita. Confira se está nítida e legível.',
    /** After "Usar mesmo assim": the checks refused the photo, so nothing says it is good. */
    kept: 'Foto mantida como está. Se não estiver legível, a análise pode pedir outra.',
    retake: 'Tirar outra foto',
    usePhoto: 'Usar esta foto',
    previewAlt: (what: string): string => `Foto: ${what}`,
    rejectedAlt: (what: string): string => `Foto recusada: ${what}`,
    tryCameraAgain: 'Tentar a câmera novamente',
    /** Shown when the camera failed and the capture view (with the detailed reasons) could not load either. */
    cameraFailed: 'Não foi possível abrir a câmera. Tente novamente ou escolha uma foto dos arquivos.',
    keepAnyway: 'Usar mesmo assim',
    keepAnywayHint: 'Se a foto estiver boa para você, pode usá-la mesmo assim.',
  },
  review: {
    retakeShort: 'Refazer',
    heading: 'Confira as fotos',
    intro: 'Verifique se todas estão nítidas e legíveis antes de enviar.',
    roles: {
      documentFront: 'Frente do documento',
      documentBack: 'Verso do documento',
      selfie: 'Selfie',
    },
    retake: (what: string): string => `Refazer: ${what}`,
    send: 'Enviar',
  },
  upload: {
    heading: 'Enviando',
    /** The heading while the upload's error shows, in place of "Enviando". */
    errorHeading: 'Não foi possível enviar',
    progressLabel: 'Progresso do envio',
    progress: (percent: number): string => `${percent}% enviado`,
    cancel: 'Cancelar envio',
    cancelled: 'Envio cancelado. Você pode enviar novamente quando quiser.',
    retry: 'Tentar novamente',
    backToReview: 'Voltar às fotos',
    fixCpf: 'Corrigir o CPF',
    retakePhoto: 'Refazer a foto',
  },
  session: {
    loadingHeading: 'Preparando a verificação',
    loading: 'Carregando os dados da sua verificação…',
    failedHeading: 'Não é possível continuar',
    unavailableHeading: 'Verificação indisponível',
    invalid: 'Este link de verificação não é válido. Volte ao site ou aplicativo que trouxe você até aqui e comece de novo.',
    expired: 'Este link de verificação expirou. Volte ao site ou aplicativo que trouxe você até aqui para receber um novo.',
    used: 'Este link de verificação já foi usado. Se você não concluiu a verificação, volte ao site ou aplicativo que trouxe você até aqui para receber um novo.',
    unavailable: 'Não foi possível carregar a sua verificação. Verifique sua internet e tente novamente.',
    /** This device lost the session: the page that opened it took it back. */
    handedOffHeading: 'A verificação continuou no outro aparelho',
    handedOff: 'Ela voltou para o aparelho em que foi aberta e segue por lá. Você pode fechar esta página.',
    /** The service provider cancelled the session. */
    cancelledHeading: 'Esta verificação foi cancelada',
    cancelled:
      'Quem pediu esta verificação a cancelou, e este link não vale mais. Se ainda precisar se verificar, peça um novo link a quem enviou este.',
    retry: 'Tentar novamente',
  },
  processing: {
    heading: 'Analisando',
    status: (status: string): string => `Situação: ${status}`,
    statusNames: {
      IN_PROCESS: 'em análise',
      APPROVED: 'aprovado',
      REFUSED: 'recusado',
      ERROR: 'erro',
    },
    gaveUp: 'A análise está demorando mais que o normal. Você pode verificar de novo agora ou voltar mais tarde.',
    lost: 'Não foi possível consultar a análise. Guarde o código abaixo e fale com o suporte.',
    offline: 'Sem conexão com a internet. Continuaremos verificando assim que ela voltar.',
  },
  outcome: {
    approvedHeading: 'Identidade verificada',
    refusedHeading: 'Verificação não aprovada',
    errorHeading: 'Não conseguimos concluir a verificação',
    supportCode: 'Código para o suporte',
    copy: 'Copiar código',
    restart: 'Começar de novo',
  },
};

/** Every string of the element; each locale catalog must satisfy it. */
export type Messages = typeof ptBR;
