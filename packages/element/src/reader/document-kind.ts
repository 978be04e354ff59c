/**
 * What kind of document a reading points to. Claims only what the zone shows for certain: a
 * passport's TD3 zone starts with P; a CIN's TD1 zone is issued by BRA and its document number is
 * the holder's CPF. The 2022 CNH's zone is not known well enough to be told from others: no claim.
 */
import type { MrzReading, ReadDocumentKind } from '@onboarding-kit/contract';

export function documentKindOfMrz(mrz: MrzReading): ReadDocumentKind | undefined {
  if (mrz.format === 'TD3' && mrz.fields.documentCode?.startsWith('P')) return 'PASSPORT';
  if (mrz.format === 'TD1' && mrz.fields.issuingState === 'BRA' && mrz.fields.cpf !== undefined) return 'CIN';
  return undefined;
}
