/**
 * Documented test identities (packages/sandbox/README.md, "Test identities"). Keys are canonical
 * tax ids (digits only for CPF, 14 characters for CNPJ). Any other valid CPF/CNPJ is an ordinary,
 * approved person/company.
 */
export type OnboardingOutcome = 'APPROVED' | 'REFUSED' | 'ERROR' | 'MANUAL_REVIEW' | 'CREATION_FAILS' | 'FORBIDDEN';

export const ONBOARDING_IDENTITIES: Readonly<Record<string, OnboardingOutcome>> = {
  '52998224725': 'APPROVED',
  '11144477735': 'REFUSED',
  '12345678909': 'ERROR',
  '98765432100': 'MANUAL_REVIEW',
  '00000019100': 'CREATION_FAILS',
  '22233344405': 'FORBIDDEN',
  '11222333000181': 'APPROVED',
  '12345678000195': 'REFUSED',
  '98765432000198': 'ERROR',
};

/** Standalone queries for these answer `result: {}` with code 200 and a balance-shortage message. */
export const NO_BALANCE_IDS: ReadonlySet<string> = new Set(['39053344705', '33444555000181']);

/** Standalone queries for this CPF answer the in-body 401 of an inactive / unknown product. */
export const INACTIVE_PRODUCT_IDS: ReadonlySet<string> = new Set(['44455566619']);

/** Documents that are customers before any onboarding (docs/upstream-api.md#customer-lookup), besides onboarded ones. */
export const PREEXISTING_CUSTOMERS: readonly string[] = ['52998224725', '11222333000181'];

/** The same identities, formatted, for tests and docs. */
export const TEST_IDENTITIES = {
  cpfApproved: '529.982.247-25',
  cpfRefused: '111.444.777-35',
  cpfError: '123.456.789-09',
  cpfManualReview: '987.654.321-00',
  cpfCreationFails: '000.000.191-00',
  cpfForbidden: '222.333.444-05',
  cpfNoBalance: '390.533.447-05',
  cpfInactiveProduct: '444.555.666-19',
  cnpjApproved: '11.222.333/0001-81',
  cnpjRefused: '12.345.678/0001-95',
  cnpjError: '98.765.432/0001-98',
  cnpjNoBalance: '33.444.555/0001-81',
} as const;
