/** Valid request bodies for every catalog service, from the catalog's own field lists. */
import { SERVICE_CATALOG, cpfCheckDigits, type ServiceId } from '@onboarding-kit/contract';
import { SAMPLE_PNG_BASE64 } from '../src/index.js';

export const DOC_KEY = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

const VALUES: Record<string, string> = {
  cpf: '529.982.247-25',
  cnpj: '11.222.333/0001-81',
  image1: SAMPLE_PNG_BASE64,
  image2: SAMPLE_PNG_BASE64,
  selfie1: SAMPLE_PNG_BASE64,
  key: DOC_KEY,
  phone: '+55 11 98765-4321',
  uf: 'SP',
  birthDate: '1990-05-17',
  rg: '123456789',
  documentType: 'CNH',
  court: 'TRF3',
  sphere: 'CIVIL',
  nome: 'Maria Silva',
  motherName: 'Ana Silva',
  fatherName: 'José Silva',
  dataDeNascimento: '1990-05-17',
};

export function requestFor(id: ServiceId, overrides: Record<string, string> = {}): Record<string, string> {
  const spec = SERVICE_CATALOG[id];
  const body: Record<string, string> = { service: id };
  for (const field of [...spec.required, ...spec.optional]) body[field] = VALUES[field]!;
  if (spec.group === 'identifier-only') body.cpf = VALUES.cpf!;
  return { ...body, ...overrides };
}

/** `n` valid CPFs other than the test identities. */
export function someCpfs(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const base = String(314_159_265 + i * 7_919);
    return base + cpfCheckDigits(base);
  });
}
