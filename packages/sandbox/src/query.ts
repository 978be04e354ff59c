/**
 * Runs one standalone query (docs/upstream-api.md#service-queries) for a service the product enables: request checks, the
 * documented test identities, image checks, then the deterministic result.
 */
import {
  REQUEST_FIELDS,
  SERVICE_CATALOG,
  isValidCnpj,
  isValidCpf,
  normalizeCnpj,
  normalizeCpf,
  type ServiceId,
} from '@onboarding-kit/contract';
import { COMPANY_RESULTS } from './data/company-results.js';
import { PERSON_RESULTS, personSeedKey } from './data/person-results.js';
import { Rng } from './data/prng.js';
import { personProfile, randomCnpj, randomCpf, companyProfile } from './data/profiles.js';
import { CHECK_IDENTITIES, forcedAnswer, UNREADABLE_MESSAGE, type CheckBehaviour } from './check-identities.js';
import type { DocumentoscopyCases } from './documentoscopy.js';
import { MSG } from './envelope.js';
import { INACTIVE_PRODUCT_IDS, NO_BALANCE_IDS } from './identities.js';
import { hasImageSource, readImage } from './image-source.js';
import { checkImageOrPdf, isNoFaceImage, type ImageCheck, type PdfCheck } from './images.js';

export type QueryOutcome =
  | { kind: 'result'; result: Record<string, unknown>; seed: string }
  | { kind: 'no-data'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failure'; code: 400 | 401; message: string }
  /** In-body 500 with `onboardingStatus: ERROR`: the upstream's technical failure. */
  | { kind: 'technical-failure' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IMAGE_FIELDS = new Set(['image1', 'image2', 'selfie1']);
/** Fields whose absence is the upstream's "Imagem obrigatória não encontrada" (images, URL or key). */
const IMAGE_LIKE_FIELDS = new Set(['image1', 'image2', 'selfie1', 'key']);

const fail = (code: 400 | 401, message: string): QueryOutcome => ({ kind: 'failure', code, message });

export interface QueryDeps {
  documentoscopy: DocumentoscopyCases;
  today: () => Date;
}

export async function runQuery(id: ServiceId, body: Readonly<Record<string, unknown>>, deps: QueryDeps): Promise<QueryOutcome> {
  const spec = SERVICE_CATALOG[id];

  // Every request field the caller sent must be text (docs/upstream-api.md#request-fields types them
  // all as string); members the upstream does not know are ignored.
  for (const field of REQUEST_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return fail(400, `Campo inválido: ${field} deve ser texto`);
  }
  const text = Object.fromEntries(REQUEST_FIELDS.filter((f) => typeof body[f] === 'string').map((f) => [f, body[f] as string])) as Readonly<
    Record<string, string | undefined>
  >;

  // Missing images, URLs and keys first: that is the upstream's dedicated message.
  for (const field of spec.required) {
    if (IMAGE_LIKE_FIELDS.has(field) && !(IMAGE_FIELDS.has(field) ? hasImageSource(body, field) : text[field]?.trim()))
      return fail(400, MSG.missingImage);
  }
  for (const field of spec.required) {
    if (!IMAGE_LIKE_FIELDS.has(field) && !text[field]?.trim()) return fail(400, `Campo obrigatório não informado: ${field}`);
  }

  let cpf: string | undefined;
  let cnpj: string | undefined;
  if (text.cpf?.trim()) {
    if (!isValidCpf(text.cpf)) return fail(400, 'CPF inválido');
    cpf = normalizeCpf(text.cpf)!;
  }
  if (text.cnpj?.trim()) {
    if (!isValidCnpj(text.cnpj)) return fail(400, 'CNPJ inválido');
    cnpj = normalizeCnpj(text.cnpj)!;
  }
  if (text.key?.trim() && !UUID.test(text.key.trim())) return fail(400, 'key inválida: formato UUID esperado');
  if (text.birthDate?.trim() && !/^\d{4}-\d{2}-\d{2}$/.test(text.birthDate.trim()))
    return fail(400, 'birthDate inválida: formato yyyy-MM-dd esperado');

  const ids = [cpf, cnpj].filter((x): x is string => !!x);
  if (ids.some((x) => INACTIVE_PRODUCT_IDS.has(x))) return fail(401, MSG.inactiveProduct);
  if (ids.some((x) => NO_BALANCE_IDS.has(x))) return { kind: 'no-data', message: MSG.noBalance };

  const today = deps.today();
  switch (spec.group) {
    case 'person': {
      const generator = PERSON_RESULTS[id];
      const request = text as Readonly<Record<string, string>>; // only the string request fields
      const seedKey = personSeedKey(id, request, cpf);
      if (!generator)
        return cpf
          ? { kind: 'result', result: { cpf }, seed: `${id}:${seedKey}` }
          : { kind: 'no-data', message: 'Nenhum dado encontrado para os parâmetros informados' };
      return {
        kind: 'result',
        result: generator({ cpf: cpf!, rng: new Rng(`${id}:${seedKey}`), today, request }),
        seed: `${id}:${seedKey}`,
      };
    }
    case 'company': {
      const generator = COMPANY_RESULTS[id];
      const seed = `${id}:cnpj:${cnpj}`;
      return { kind: 'result', result: generator ? generator({ cnpj: cnpj!, rng: new Rng(seed), today }) : { cnpj }, seed };
    }
    case 'identifier-only': {
      // Request and result fields are not shown: echo the identifier sent, invent nothing else.
      if (!cpf && !cnpj) return { kind: 'no-data', message: 'Nenhum dado encontrado para os parâmetros informados' };
      return { kind: 'result', result: { ...(cpf && { cpf }), ...(cnpj && { cnpj }) }, seed: `${id}:${cpf ?? ''}:${cnpj ?? ''}` };
    }
    case 'image':
      return runImageQuery(id, body, text, cpf, deps);
  }
}

type ImageChecks = Record<string, Extract<ImageCheck, { ok: true }> | PdfCheck>;

/** Services whose document may be a PDF rather than a photo. */
const PDF_SERVICES: ReadonlySet<ServiceId> = new Set(['SERVICE_OCR_PROOF_OF_ADDRESS']);

/** The service's images that the body carries, each read and checked, or the answer that refuses the query. */
async function readQueryImages(
  id: ServiceId,
  body: Readonly<Record<string, unknown>>,
): Promise<{ checks: ImageChecks } | { refusal: QueryOutcome }> {
  const spec = SERVICE_CATALOG[id];
  const roles = (spec as { images?: Partial<Record<string, 'document' | 'face'>> }).images ?? {};
  const checks: ImageChecks = {};
  for (const [field, role] of Object.entries(roles)) {
    if (!hasImageSource(body, field)) continue; // optional and absent (required ones were checked before)
    const read = await readImage(body, field);
    const check = PDF_SERVICES.has(id) ? checkImageOrPdf(read, body[field]) : read;
    if (!check.ok) return { refusal: { kind: 'refused', message: `Imagem inválida ou ilegível (${field}): ${check.reason}` } };
    if (role === 'face' && isNoFaceImage(check)) return { refusal: fail(400, MSG.faceNotFound) };
    checks[field] = check;
  }
  return { checks };
}

async function runImageQuery(
  id: ServiceId,
  body: Readonly<Record<string, unknown>>,
  text: Readonly<Record<string, string | undefined>>,
  cpf: string | undefined,
  deps: QueryDeps,
): Promise<QueryOutcome> {
  const read = await readQueryImages(id, body);
  if ('refusal' in read) return read.refusal;
  const { checks } = read;
  const behaviour = cpf ? CHECK_IDENTITIES[cpf] : undefined;
  switch (forcedAnswer(behaviour, id)) {
    case 'technical-failure':
      return { kind: 'technical-failure' };
    case 'no-face':
      return fail(400, MSG.faceNotFound);
    case 'unreadable':
      return { kind: 'refused', message: UNREADABLE_MESSAGE };
    case null:
      break;
  }
  const hashOf = (field: string) => checks[field]?.sha256 ?? '';
  const seed = `${id}:${Object.keys(checks).sort().map(hashOf).join(':')}:${cpf ?? ''}`;
  const q: ImageQuery = { hashOf, seed, rng: new Rng(seed), key: text.key?.trim().toLowerCase(), text, cpf, behaviour, deps };
  switch (id) {
    case 'SERVICE_FACE_INDEX':
    case 'SERVICE_FACE_MATCH':
    case 'SERVICE_VALIDATION_CNH':
      return biometricResult(id, q);
    case 'SERVICE_DIGITAL_DOCUMENTOSCOPY':
    case 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT':
      return documentoscopyResult(id, q);
    default:
      return ocrResult(id, q);
  }
}

/** What an image query's answer is made from: its images' digests, a generator they seed, and its text fields. */
interface ImageQuery {
  hashOf: (field: string) => string;
  seed: string;
  rng: Rng;
  key: string | undefined;
  text: Readonly<Record<string, string | undefined>>;
  cpf: string | undefined;
  /** What a check test identity asks of the answer (none: the images decide). */
  behaviour: CheckBehaviour | undefined;
  deps: QueryDeps;
}

/**
 * Whose document the images show: the person whose CPF the query carries (another person for the
 * `other-person` identity); without a CPF, a person the document's bytes decide.
 */
function documentHolder({ hashOf, cpf, behaviour }: ImageQuery): string {
  if (cpf && behaviour !== 'other-person') return cpf;
  return randomCpf(new Rng(cpf ? `other-person:${cpf}` : `document:${hashOf('image1')}`));
}

/** Whether the faces compared belong to one person: decided by the test identity when the query carries a CPF. */
function facesMatch(q: ImageQuery): boolean | undefined {
  if (!q.cpf) return undefined;
  return q.behaviour !== 'mismatch' && q.behaviour !== 'other-person';
}

function biometricResult(id: 'SERVICE_FACE_INDEX' | 'SERVICE_FACE_MATCH' | 'SERVICE_VALIDATION_CNH', q: ImageQuery): QueryOutcome {
  const { hashOf, seed, rng, cpf } = q;
  const known = facesMatch(q);
  switch (id) {
    case 'SERVICE_FACE_INDEX': {
      // A match search in the face base: the match is a deterministic person for these face bytes.
      const match = randomCpf(new Rng(`face:${hashOf('image1')}`));
      return { kind: 'result', result: { cpf: match, faceFound: true, similarity: Number((90 + rng.next() * 9.99).toFixed(2)) }, seed };
    }
    case 'SERVICE_FACE_MATCH': {
      const same = hashOf('image1') === hashOf('image2');
      const similarity =
        known === undefined
          ? same
            ? 100
            : Number((60 + rng.next() * 39.99).toFixed(2))
          : known
            ? Number((85 + rng.next() * 14.99).toFixed(2))
            : Number((10 + rng.next() * 40).toFixed(2));
      const match = similarity >= 80;
      return { kind: 'result', result: { match, similarity, status: match ? 'MATCH' : 'NO_MATCH' }, seed };
    }
    case 'SERVICE_VALIDATION_CNH': {
      if (known === false) {
        const biometricScore = Number((10 + rng.next() * 40).toFixed(2));
        return { kind: 'result', result: { cpf, biometricScore, validated: false, validationStatus: 'NOT_VALIDATED' }, seed };
      }
      const biometricScore = Number((85 + rng.next() * 14.99).toFixed(2));
      return { kind: 'result', result: { cpf, biometricScore, validated: true, validationStatus: 'VALIDATED' }, seed };
    }
  }
}

function documentoscopyResult(
  id: 'SERVICE_DIGITAL_DOCUMENTOSCOPY' | 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT',
  q: ImageQuery,
): QueryOutcome {
  const { seed, key, deps } = q;
  switch (id) {
    case 'SERVICE_DIGITAL_DOCUMENTOSCOPY': {
      const holder = documentHolder(q);
      const entry = deps.documentoscopy.submit({ key: key!, documentData: { name: personProfile(holder).name, cpf: holder } });
      const status = deps.documentoscopy.statusOf(entry);
      return {
        kind: 'result',
        result: {
          key: entry.key,
          status,
          documentData: entry.documentData,
          validations: [
            { name: 'DOCUMENT_FRONT', status },
            { name: 'DOCUMENT_BACK', status },
            { name: 'SELFIE_MATCH', status },
          ],
        },
        seed,
      };
    }
    case 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT': {
      const entry = deps.documentoscopy.get(key!);
      if (!entry) return { kind: 'no-data', message: 'Nenhuma consulta encontrada para a key informada' };
      const status = deps.documentoscopy.statusOf(entry);
      const rules =
        status === 'APPROVED'
          ? [
              { name: 'DOCUMENT_AUTHENTICITY', status, evidence: 'Elementos de segurança conferidos' },
              { name: 'FACE_MATCH', status, evidence: 'Selfie compatível com a foto do documento' },
            ]
          : [];
      return {
        kind: 'result',
        result: { key: entry.key, status, fields: status === 'APPROVED' ? { ...entry.documentData } : {}, rules },
        seed: `${id}:${entry.key}`,
      };
    }
  }
}

function ocrResult(id: ServiceId, q: ImageQuery): QueryOutcome {
  const { hashOf, seed, rng, text } = q;
  switch (id) {
    case 'SERVICE_OCR': {
      const holder = documentHolder(q);
      const p = personProfile(holder);
      const docType = text.documentType!.trim().toUpperCase();
      // cnhCategory / cnhNumber exist on a driver licence only; other kinds leave them out rather than invent them.
      const cnh = docType === 'CNH' ? { cnhCategory: rng.pick(['A', 'B', 'AB', 'C', 'D', 'E']), cnhNumber: rng.digits(11) } : {};
      return { kind: 'result', result: { cpf: holder, docType, name: p.name, birthDate: p.birthDate, ...cnh }, seed };
    }
    case 'SERVICE_OCR_CNPJ_CARD': {
      const cnpj = randomCnpj(new Rng(`document:${hashOf('image1')}`));
      const c = companyProfile(cnpj);
      return {
        kind: 'result',
        result: {
          cnpj,
          docType: 'CNPJ_CARD',
          genericOcr: { officialName: c.officialName, foundationDate: c.foundationDate, city: c.address.city, state: c.address.state },
        },
        seed,
      };
    }
    case 'SERVICE_OCR_EMANCIPATION': {
      const holder = randomCpf(new Rng(`document:${hashOf('image1')}`));
      const p = personProfile(holder);
      return {
        kind: 'result',
        result: {
          docType: 'EMANCIPATION',
          genericOcr: `ESCRITURA PÚBLICA DE EMANCIPAÇÃO ${p.name.toUpperCase()}`,
          extractedFields: { name: p.name, cpf: holder, birthDate: p.birthDate },
          analysis: { status: 'APPROVED' },
        },
        seed,
      };
    }
    default:
      // SERVICE_OCR_PROOF_OF_ADDRESS: result members not shown; the image was read, nothing is invented.
      return { kind: 'no-data', message: 'Documento processado sem dados estruturados disponíveis' };
  }
}
