/**
 * The upstream's service catalog (docs/upstream-api.md#service-catalog), as data. Identifiers are
 * copied exactly, including the misspelled `SEVICE_ONLINE_BETTING_PROPENSITY`, which the upstream
 * expects as is.
 */

/** Request fields of `POST /api/service-api` (docs/upstream-api.md#request-fields), `service` aside. */
export const REQUEST_FIELDS = [
  'cpf',
  'cnpj',
  'image1',
  'image2',
  'image1Url',
  'image2Url',
  'selfie1',
  'key',
  'phone',
  'uf',
  'birthDate',
  'rg',
  'documentType',
  'court',
  'sphere',
  'nome',
  'motherName',
  'fatherName',
  'dataDeNascimento',
] as const;

export type RequestField = (typeof REQUEST_FIELDS)[number];

export type ImageField = 'image1' | 'image2' | 'selfie1';

/** OCR takes document images, face services take the selfie (docs/upstream-api.md#images). */
export type ImageRole = 'document' | 'face';

export type ServiceGroup = 'person' | 'image' | 'company' | 'identifier-only';

export interface ServiceSpec {
  readonly group: ServiceGroup;
  /** Fields the upstream marks as required. */
  readonly required: readonly RequestField[];
  /** Fields the upstream lists as optional, or lists without saying whether they are required. */
  readonly optional: readonly RequestField[];
  /** False where the upstream does not show the request fields at all. */
  readonly requestShown: boolean;
  /** For image services: what each image field must hold. */
  readonly images?: Readonly<Partial<Record<ImageField, ImageRole>>>;
  /** Result members the upstream lists. */
  readonly result: readonly string[];
  /** True where the upstream says further result members exist that it does not show (`(+)`). */
  readonly resultPartial: boolean;
}

const person = (required: RequestField[], result: string[], partial = false, optional: RequestField[] = []): ServiceSpec => ({
  group: 'person',
  required,
  optional,
  requestShown: true,
  result,
  resultPartial: partial,
});
const company = (result: string[], partial = false): ServiceSpec => ({
  group: 'company',
  required: ['cnpj'],
  optional: [],
  requestShown: true,
  result,
  resultPartial: partial,
});
const image = (
  required: RequestField[],
  images: Partial<Record<ImageField, ImageRole>>,
  result: string[],
  partial = false,
  optional: RequestField[] = [],
): ServiceSpec => ({
  group: 'image',
  required,
  optional,
  requestShown: true,
  images,
  result,
  resultPartial: partial,
});
const identifierOnly: ServiceSpec = {
  group: 'identifier-only',
  required: [],
  optional: [],
  requestShown: false,
  result: [],
  resultPartial: true,
};

export const SERVICE_CATALOG = {
  // Person services (docs/upstream-api.md#person-services)
  SERVICE_PERSON_DATA_ENRICHMENT: person(
    ['cpf'],
    [
      'cpf',
      'status',
      'statusDate',
      'name',
      'motherName',
      'birthdate',
      'birthCountry',
      'dead',
      'gender',
      'age',
      'origin',
      'fiscalRegion',
      'numberOfPeopleWithTheSameName',
      'nameWordCount',
      'nameUniqueScore',
    ],
  ),
  SERVICE_RFB_PF: person([], [], true, ['cpf', 'dataDeNascimento']),
  SERVICE_RFB_PF_ON_DEMAND: person(['cpf'], ['cpf', 'name', 'birthDate', 'registrationStatus', 'protocol']),
  SERVICE_CREDIT_SCORE: person([], [], true, ['cpf']),
  SERVICE_BUREAU_CREDIT_SCORE_PERSON: person(
    ['cpf'],
    ['cpf', 'score', 'hasRestrictions', 'restrictionCount', 'creditBureauSummary', 'creditBureauDetails', 'origin', 'queryDate'],
  ),
  SERVICE_ACTIVE_DEBT_PF: person(['cpf'], ['cpf', 'totalDebts', 'totalValue', 'debts']),
  SERVICE_FINANCIAL_INFORMATION: person(['cpf'], [], true),
  SERVICE_PF_FINANCIAL_AND_ADDRESS: person(['cpf'], ['cpf', 'estimatedIncome', 'addresses', 'financialIndicators'], false, ['birthDate']),
  SERVICE_DEMOGRAPHIC_DATA_CPF: person(['cpf'], ['cpf', 'demographicData', 'totalIndicators'], false, ['birthDate']),
  SERVICE_CRIMINAL_RECORD_CIVIL: person(['cpf', 'rg', 'uf'], ['cpf', 'rg', 'state', 'hasRecords', 'records']),
  SERVICE_CRIMINAL_RECORD_FEDERAL: person(['cpf'], ['cpf', 'hasFederalCriminalRecord', 'records']),
  SERVICE_NOTHING_RECORD_LAWSUITS: person(['cpf', 'court', 'uf', 'sphere'], ['cpf', 'court', 'sphere', 'nothingFound', 'records']),
  SERVICE_PROTEST_CLEARANCE_CERTIFICATE: person(['cpf'], ['cpf', 'hasProtests', 'protests']),
  SERVICE_PROTEST_PF: person(['cpf'], ['cpf', 'hasProtests', 'notaryOffices', 'protests']),
  SERVICE_ARREST_WARRANT: person(['nome', 'motherName', 'fatherName', 'birthDate', 'cpf'], ['cpf', 'hasArrestWarrant', 'warrants']),
  SERVICE_JURIDICAL_PROCESSES: person(['cpf'], ['cpf', 'totalProcesses', 'processes']),
  SERVICE_SOCIAL_ASSISTANCE_EXTENDED: person(['cpf'], ['cpf', 'totalBenefits', 'benefits', 'indicators']),
  SERVICE_FAMILY_SOCIAL_BENEFITS: person(['cpf'], ['cpf', 'totalBenefits', 'benefits']),
  SERVICE_MEI: person(['cpf'], ['cpf', 'meiCompanies']),
  SERVICE_PIS_CONSULTATION: person(['cpf'], ['cpf', 'pis', 'status']),
  SERVICE_ONDEMAND_SUS_CARD_PERSON_CPF: person(
    ['cpf'],
    [
      'cpf',
      'sus_card_success',
      'sus_card_number',
      'sus_card_source',
      'sus_card_capture_date',
      'sus_card_birth_date',
      'sus_card_birth_city',
      'sus_card_birth_state',
      'sus_card_has_evidence',
      'sus_card_raw_result_file',
      'sus_card_raw_result_file_type',
      'sus_card_summary',
    ],
  ),
  SERVICE_ELECTION_CANDIDATE_DATA_CPF: person(['cpf'], ['cpf', 'candidacies']),
  SERVICE_ELECTORAL_DONORS_CPF: person(['cpf'], ['cpf', 'donations']),
  SERVICE_ELECTORAL_PROVIDERS_CPF: person(['cpf'], ['cpf', 'campos']),
  SERVICE_FAMILY_POLITICAL_HISTORY_CPF: person(['cpf'], [], true),
  SERVICE_PEP: person(['cpf'], ['cpf', 'isPep', 'positions']),
  SERVICE_MEDIA_PROFILE_EXPOSURE_PF: person(['cpf'], ['cpf', 'mediaMentions', 'exposureLevel']),
  SEVICE_ONLINE_BETTING_PROPENSITY: person(['cpf'], ['cpf', 'propensityScore', 'propensityLevel', 'indicators']),
  SERVICE_CONFIRM_PHONE: person(['phone'], ['phone', 'matched', 'person']),
  SERVICE_DOMAINS_CPF: person(['cpf'], ['cpf', 'totalDomains', 'domains']),
  SERVICE_RELATED_PEOPLE_EMAILS: person(['cpf'], ['cpf', 'totalRelatedPeopleEmails', 'relatedPeopleEmailsList', 'relatedPeopleEmails']),
  SERVICE_ADDRESS: person(['cpf'], ['cpf', 'totalAddresses', 'addresses']),
  SERVICE_PROFESSIONAL_HISTORY: person(['cpf'], [], true),
  SERVICE_PROFESSIONAL_HISTORY_OWNER_ONLY: person(['cpf'], [], true, ['birthDate']),
  SERVICE_ACTIVITIES_INDICATORS: person(['cpf'], [], true),

  // Image, biometric and document services (docs/upstream-api.md#image-and-document-services)
  SERVICE_FACE_INDEX: image(['image1'], { image1: 'face' }, ['cpf', 'faceFound', 'similarity']),
  SERVICE_FACE_MATCH: image(['image1', 'image2'], { image1: 'face', image2: 'face' }, ['match', 'similarity', 'status']),
  SERVICE_DIGITAL_DOCUMENTOSCOPY: image(
    ['key', 'image1', 'image2', 'selfie1'],
    { image1: 'document', image2: 'document', selfie1: 'face' },
    ['key', 'status', 'documentData', 'validations'],
  ),
  SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT: image(['key'], {}, ['key', 'status', 'fields', 'rules']),
  SERVICE_VALIDATION_CNH: image(['cpf', 'image1'], { image1: 'face' }, ['cpf', 'biometricScore', 'validated', 'validationStatus']),
  SERVICE_OCR: image(
    ['documentType', 'image1'],
    { image1: 'document', image2: 'document' },
    ['cpf', 'docType', 'name', 'birthDate', 'cnhCategory', 'cnhNumber'],
    false,
    ['image2'],
  ),
  SERVICE_OCR_CNPJ_CARD: image(['image1'], { image1: 'document' }, ['cnpj', 'docType', 'genericOcr']),
  SERVICE_OCR_PROOF_OF_ADDRESS: image(['image1'], { image1: 'document' }, [], true),
  SERVICE_OCR_EMANCIPATION: image(['image1'], { image1: 'document' }, ['docType', 'genericOcr', 'extractedFields', 'analysis']),

  // Company services (docs/upstream-api.md#company-services)
  SERVICE_RFB_PJ: company([], true),
  SERVICE_CREDIT_RISK_COMPANY: company([], true),
  SERVICE_JURIDICAL_PROCESSES_PJ: company([], true),
  SERVICE_OWNERS_LAWSUITS_DISTRIBUTION: company(
    [
      'cnpj',
      'companyOwnersLawsuitsTotalOwners',
      'companyOwnersLawsuitsMaxPerOwner',
      'companyOwnersLawsuitsAvgPerOwner',
      'companyOwnersLawsuitsMinPerOwner',
      'companyOwnersLawsuitsAsAuthor',
    ],
    true,
  ),
  SERVICE_OWNERS_ELECTORAL_DONORS_CNPJ: company(['cnpj', 'ownersDonations']),
  SERVICE_DOMAINS_CNPJ: company(['cnpj', 'totalDomains', 'domains']),
  SERVICE_ADDRESSES_EXTENDED_CNPJ: company(
    [
      'cnpj',
      'addresses',
      'addressesExtendedTotal',
      'addressesExtendedTotalActive',
      'addressesExtendedTotalWork',
      'addressesExtendedTotalPersonal',
    ],
    true,
  ),
  SERVICE_MEDIA_PROFILE_EXPOSURE_PJ: company(['cnpj', 'mediaMentions', 'exposureLevel']),
  SERVICE_COMPANY_KYC_OWNERS: company(
    [
      'cnpj',
      'totalCurrentPep',
      'totalHistoricallyPEP',
      'totalCurrentSanctioned',
      'totalHistoricallySanctioned',
      'averageSanctionsPerOwner',
      'pepPercentage',
      'kycOwners',
      'companyOwners',
      'peopleOwners',
    ],
    true,
  ),
  SERVICE_JURIDICAL_PROCESSES_PJ_OWNERS: company(['cnpj', 'ownersProcesses']),
  SERVICE_RF_QSA: company(['cnpj', 'qsaCompanyType', 'qsaCompanySize', 'qsaCapital', 'qsaCapitalValue', 'qsaCnae'], true),
  SERVICE_COMPANY_RELATIONSHIP: company(['cnpj', 'owners', 'relatedCompanies']),
  SERVICE_ECONOMIC_GROUP_RELATIONSHIPS: company(
    [
      'cnpj',
      'totalEconomicGroupRelationships',
      'economicGroupRelationshipsSummary',
      'economicGroupRelationships',
      'economicGroupCurrentRelationships',
      'economicGroupHistoricalRelationships',
    ],
    true,
  ),
  SERVICE_CGU_NEGATIVE_CERTIFICATE_COMPANY: company(
    ['cnpj', 'cguSummary', 'cguBaseStatus', 'cguClearance', 'cguValidUntil', 'cguIssueDate'],
    true,
  ),
  SERVICE_PCD_COMPANY: company(['cnpj', 'pcdSummary', 'pcdBaseStatus', 'pcdExpeditionDate', 'pcdCertificateUrl', 'pcdContent']),
  SERVICE_INVESTMENT_FUND_DATA: company(['cnpj', 'totalMovimentations', 'investmentFundDataSummary', 'investmentFundData']),
  SERVICE_COMPANY_EVOLUTION: company(['cnpj', 'companyEvolutionSummary', 'companyEvolutionStats']),
  SERVICE_FGTS: company(
    ['cnpj', 'fgtsStatus', 'fgtsCertificateNumber', 'fgtsCertificateValidity', 'fgtsCertificateText', 'fgtsSummary'],
    true,
  ),
  SERVICE_SCORING_CREDIT_RISK_COMPANY: company(
    ['cnpj', 'riskLevel', 'riskClassification', 'hasRestrictions', 'negativeFlagsCount', 'creditBureauSummary'],
    true,
  ),
  SERVICE_HISTORY_BASIC_DATA: company(
    [
      'cnpj',
      'historyBasicDataCurrentName',
      'historyBasicDataAge',
      'historyBasicDataTotalChanges',
      'historyBasicDataSummary',
      'historyBasicDataStats',
    ],
    true,
  ),
  SERVICE_OWNERS_INFLUENCE: company(['cnpj', 'influenceScore', 'ownersInfluenceSummary', 'ownersInfluence']),
  SERVICE_MARKETPLACE_DATA: company(
    [
      'cnpj',
      'totalMarketplacesUsed',
      'totalStoresOperated',
      'marketplaceWithMostProducts',
      'marketplaceWithBestRating',
      'totalProductsListed',
    ],
    true,
  ),
  SERVICE_CIVIL_CONSTRUCTION: company([
    'cnpj',
    'totalCivilConstructionRecords',
    'totalActiveCivilConstructionRecords',
    'civilConstructionSummary',
    'civilConstructionRecords',
  ]),
  SERVICE_SIMPLES_COMPANY: company([
    'cnpj',
    'simplesSummary',
    'simplesOfficialName',
    'simplesNationalStatus',
    'simplesMeiStatus',
    'simplesCertificateUrl',
  ]),
  SERVICE_BUREAU_OWNER_PARTICIPATION_DATA_COMPANY: company(
    [
      'cnpj',
      'numberOfOwners',
      'numberOfPeopleAsOwners',
      'numberOfCompaniesAsOwners',
      'hasMajorityStakeHolder',
      'averageParticipationPercentage',
    ],
    true,
  ),

  // Known by identifier only: request and result fields not shown (docs/upstream-api.md#services-known-by-identifier-only).
  // (SERVICE_DOMAINS_CNPJ is also in the upstream's list of these; it is described above.)
  SERVICE_PGMEI: identifierOnly,
  SERVICE_RFB_PJ_ON_DEMAND: identifierOnly,
  SERVICE_REGISTRATION_DATA_CNPJ: identifierOnly,
  SERVICE_ELECTORAL_PROVIDERS_CNPJ: identifierOnly,
  SERVICE_ECONOMIC_GROUP_KYC_COMPANY: identifierOnly,
  SERVICE_LABOR_LAWSUITS: identifierOnly,
  SERVICE_PROTEST_PJ: identifierOnly,
  SERVICE_LAWSUITS_DISTRIBUTION_DATA_COMPANY: identifierOnly,
  SERVICE_COMPLIANCE_BET_PJ: identifierOnly,
  SERVICE_COMPLIANCE_BET: identifierOnly,
  SERVICE_SYNDICATE_AGREEMENTS: identifierOnly,
  SERVICE_ONLINE_ADS: identifierOnly,
  SERVICE_REPUTATIONS_AND_REVIEWS: identifierOnly,
  SERVICE_STATE_DEBT_CERTIFICATE_COMPANY: identifierOnly,
  SERVICE_BUREAU_CREDIT_SCORE_COMPANY: identifierOnly,
  SERVICE_ACTIVE_DEBT_PJ: identifierOnly,
  SERVICE_POLITICAL_INVOLVEMENT: identifierOnly,
  SERVICE_SCORING_CREDIT_RISK_PERSON: identifierOnly,
} as const satisfies Record<string, ServiceSpec>;

export type ServiceId = keyof typeof SERVICE_CATALOG;

export const SERVICE_IDS = Object.keys(SERVICE_CATALOG) as ServiceId[];

export function isServiceId(value: string): value is ServiceId {
  return Object.prototype.hasOwnProperty.call(SERVICE_CATALOG, value);
}

export function serviceSpec(id: ServiceId): ServiceSpec {
  return SERVICE_CATALOG[id];
}

/**
 * Call aliases seen in products for some services (docs/upstream-api.md#aliases). A product may
 * expose the digital document inspection as `SERVICE_DOCUMENTOSCOPY`; the others are examples the
 * upstream names.
 */
export const KNOWN_CALL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  SERVICE_DIGITAL_DOCUMENTOSCOPY: ['SERVICE_DOCUMENTOSCOPY'],
  SERVICE_EMAIL_VALIDATION: ['SERVICE_EMAIL_VALIDATION1', 'SERVICE_EMAIL_VALIDATION'],
  SERVICE_ECONOMIC_RELATIONSHIP: ['economic_relationships', 'SERVICE_ECONOMIC_RELATIONSHIP'],
};

/** Per-product aliases: which string to send in `service` for a catalog identifier. */
export type AliasMap = Readonly<Partial<Record<ServiceId, string>>>;

/** The string to send upstream: the product's alias when configured, else the identifier itself, untouched. */
export function callAlias(id: ServiceId, aliases: AliasMap = {}): string {
  return aliases[id] ?? id;
}

/** The catalog identifier behind an alias sent upstream, or `undefined`. */
export function serviceForAlias(alias: string, aliases: AliasMap = {}): ServiceId | undefined {
  for (const [id, configured] of Object.entries(aliases)) if (configured === alias) return id as ServiceId;
  return isServiceId(alias) ? alias : undefined;
}
