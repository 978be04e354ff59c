/**
 * Result generators for the person services (docs/upstream-api.md#person-services). Each returns
 * exactly the members the upstream lists, with the types it gives; values come from the CPF's profile and a PRNG seeded by
 * service + CPF.
 */
import { PLACES, ageOn, fullName, isoDate, personProfile, randomCnpj, randomCpf } from './profiles.js';
import type { Rng } from './prng.js';

export interface PersonInput {
  cpf: string;
  rng: Rng;
  today: Date;
  request: Readonly<Record<string, string>>;
}

type Generator = (input: PersonInput) => Record<string, unknown>;

const PROGRAMS = ['Bolsa Família', 'BPC', 'Auxílio Gás', 'Pé-de-Meia', 'Seguro-Defeso'];
const PARTIES = ['PARTIDO A', 'PARTIDO B', 'PARTIDO C', 'PARTIDO D'];
const LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;

function benefits(rng: Rng): { program: string; status: string }[] {
  return Array.from({ length: rng.int(0, 3) }, () => ({
    program: rng.pick(PROGRAMS),
    status: rng.pick(['ACTIVE', 'INACTIVE', 'SUSPENDED']),
  }));
}

export const PERSON_RESULTS: Readonly<Record<string, Generator>> = {
  SERVICE_PERSON_DATA_ENRICHMENT: ({ cpf, rng, today }) => {
    const p = personProfile(cpf);
    const words = p.name.split(' ').length;
    return {
      cpf,
      status: 'REGULAR',
      statusDate: rng.date(2015, today.getUTCFullYear() - 1),
      name: p.name,
      motherName: p.motherName,
      birthdate: p.birthDate,
      birthCountry: 'BRASIL',
      dead: false,
      gender: p.gender,
      age: ageOn(p.birthDate, today),
      origin: 'RECEITA FEDERAL',
      fiscalRegion: p.fiscalRegion,
      numberOfPeopleWithTheSameName: rng.int(0, 250),
      nameWordCount: words,
      nameUniqueScore: Number(rng.next().toFixed(4)),
    };
  },
  SERVICE_RFB_PF_ON_DEMAND: ({ cpf, rng }) => {
    const p = personProfile(cpf);
    return { cpf, name: p.name, birthDate: p.birthDate, registrationStatus: 'REGULAR', protocol: rng.digits(16) };
  },
  SERVICE_BUREAU_CREDIT_SCORE_PERSON: ({ cpf, rng, today }) => {
    const score = rng.int(150, 990);
    const restrictionCount = score < 400 ? rng.int(1, 6) : 0;
    return {
      cpf,
      score,
      hasRestrictions: restrictionCount > 0,
      restrictionCount,
      creditBureauSummary: restrictionCount > 0 ? `Score ${score}, ${restrictionCount} restrição(ões)` : `Score ${score}, sem restrições`,
      creditBureauDetails: { scoreRange: score >= 700 ? 'HIGH' : score >= 400 ? 'MEDIUM' : 'LOW', restrictionCount },
      origin: 'BUREAU',
      queryDate: isoDate(today),
    };
  },
  SERVICE_ACTIVE_DEBT_PF: ({ cpf, rng }) => {
    const debts = Array.from({ length: rng.int(0, 3) }, () => ({
      source: rng.pick(['PGFN', 'FGTS', 'PREVIDENCIARIA']),
      value: rng.money(100, 25_000),
      status: rng.pick(['ATIVA', 'PARCELADA', 'SUSPENSA']),
    }));
    const total = debts.reduce((sum, d) => sum + Math.round(Number(d.value) * 100), 0);
    return { cpf, totalDebts: debts.length, totalValue: (total / 100).toFixed(2), debts };
  },
  SERVICE_PF_FINANCIAL_AND_ADDRESS: ({ cpf, rng }) => {
    const p = personProfile(cpf);
    return {
      cpf,
      estimatedIncome: rng.money(1_412, 35_000),
      addresses: [
        { city: p.address.city, state: p.address.state },
        ...(rng.bool(0.3) ? [rng.pick(PLACES)].map((x) => ({ city: x.city, state: x.state })) : []),
      ],
      financialIndicators: [
        { indicator: 'BUYING_POWER', value: rng.pick(['LOW', 'MEDIUM', 'HIGH']) },
        { indicator: 'ECONOMIC_CLASS', value: rng.pick(['A', 'B', 'C', 'D', 'E']) },
      ],
    };
  },
  SERVICE_DEMOGRAPHIC_DATA_CPF: ({ cpf, rng }) => {
    const demographicData = [
      { indicator: 'EDUCATION_LEVEL', value: rng.pick(['FUNDAMENTAL', 'MEDIO', 'SUPERIOR', 'POS_GRADUACAO']) },
      { indicator: 'MARITAL_STATUS', value: rng.pick(['SOLTEIRO', 'CASADO', 'DIVORCIADO', 'VIUVO']) },
      { indicator: 'HOUSEHOLD_SIZE', value: String(rng.int(1, 6)) },
    ];
    return { cpf, demographicData, totalIndicators: demographicData.length };
  },
  SERVICE_CRIMINAL_RECORD_CIVIL: ({ cpf, request }) => ({ cpf, rg: request.rg, state: request.uf, hasRecords: false, records: [] }),
  SERVICE_CRIMINAL_RECORD_FEDERAL: ({ cpf }) => ({ cpf, hasFederalCriminalRecord: false, records: [] }),
  SERVICE_NOTHING_RECORD_LAWSUITS: ({ cpf, request }) => ({
    cpf,
    court: request.court,
    sphere: request.sphere,
    nothingFound: true,
    records: [],
  }),
  SERVICE_PROTEST_CLEARANCE_CERTIFICATE: ({ cpf, rng }) => {
    const protests = rng.bool(0.2)
      ? [{ notaryOffice: `${rng.int(1, 10)}º Tabelionato de Protesto`, value: rng.money(50, 8_000), date: rng.date(2018, 2025) }]
      : [];
    return { cpf, hasProtests: protests.length > 0, protests };
  },
  SERVICE_PROTEST_PF: ({ cpf, rng }) => {
    const protests = rng.bool(0.2)
      ? [{ notaryOffice: `${rng.int(1, 10)}º Tabelionato de Protesto`, value: rng.money(50, 8_000), date: rng.date(2018, 2025) }]
      : [];
    return { cpf, hasProtests: protests.length > 0, notaryOffices: protests.map((x) => x.notaryOffice), protests };
  },
  SERVICE_ARREST_WARRANT: ({ cpf }) => ({ cpf, hasArrestWarrant: false, warrants: [] }),
  SERVICE_JURIDICAL_PROCESSES: ({ cpf, rng }) => {
    const processes = Array.from({ length: rng.int(0, 2) }, () => ({
      number: `${rng.digits(7)}-${rng.digits(2)}.${rng.int(2010, 2025)}.8.26.${rng.digits(4)}`,
      court: 'TJSP',
      subject: rng.pick(['Cobrança', 'Consumidor', 'Família']),
    }));
    return { cpf, totalProcesses: processes.length, processes };
  },
  SERVICE_SOCIAL_ASSISTANCE_EXTENDED: ({ cpf, rng }) => {
    const list = benefits(rng);
    return {
      cpf,
      totalBenefits: list.length,
      benefits: list,
      indicators: list.length > 0 ? [{ indicator: 'CADUNICO', value: 'SIM' }] : [],
    };
  },
  SERVICE_FAMILY_SOCIAL_BENEFITS: ({ cpf, rng }) => {
    const list = benefits(rng);
    return { cpf, totalBenefits: list.length, benefits: list };
  },
  SERVICE_MEI: ({ cpf, rng }) => ({
    cpf,
    meiCompanies: rng.bool(0.3)
      ? [
          {
            cnpj: randomCnpj(rng),
            officialName: `${personProfile(cpf).name.toUpperCase()} ${rng.digits(8)}`,
            status: rng.pick(['ATIVA', 'BAIXADA']),
          },
        ]
      : [],
  }),
  SERVICE_PIS_CONSULTATION: ({ cpf, rng }) => ({ cpf, pis: rng.digits(11), status: 'ATIVO' }),
  SERVICE_ONDEMAND_SUS_CARD_PERSON_CPF: ({ cpf, rng, today }) => {
    const p = personProfile(cpf);
    const number = `7${rng.digits(14)}`;
    return {
      cpf,
      sus_card_success: true,
      sus_card_number: number,
      sus_card_source: 'CADSUS',
      sus_card_capture_date: isoDate(today),
      sus_card_birth_date: p.birthDate,
      sus_card_birth_city: p.address.city,
      sus_card_birth_state: p.address.state,
      sus_card_has_evidence: true,
      sus_card_raw_result_file: `https://sandbox.invalid/evidence/sus/${number}.pdf`,
      sus_card_raw_result_file_type: 'application/pdf',
      sus_card_summary: `Cartão SUS ${number} localizado`,
    };
  },
  SERVICE_ELECTION_CANDIDATE_DATA_CPF: ({ cpf, rng }) => ({
    cpf,
    candidacies: rng.bool(0.15)
      ? [
          {
            year: rng.pick([2016, 2018, 2020, 2022, 2024]),
            role: rng.pick(['VEREADOR', 'PREFEITO', 'DEPUTADO ESTADUAL']),
            party: rng.pick(PARTIES),
            status: rng.pick(['ELEITO', 'NÃO ELEITO', 'SUPLENTE']),
          },
        ]
      : [],
  }),
  SERVICE_ELECTORAL_DONORS_CPF: ({ cpf, rng }) => ({
    cpf,
    donations: rng.bool(0.2)
      ? [{ year: rng.pick([2018, 2020, 2022, 2024]), recipient: fullName(rng, rng.bool() ? 'F' : 'M'), amount: rng.money(50, 5_000) }]
      : [],
  }),
  SERVICE_ELECTORAL_PROVIDERS_CPF: ({ cpf }) => ({ cpf, campos: [] }),
  SERVICE_PEP: ({ cpf }) => ({ cpf, isPep: false, positions: [] }),
  SERVICE_MEDIA_PROFILE_EXPOSURE_PF: ({ cpf, rng }) => {
    const mediaMentions = rng.int(0, 40);
    return { cpf, mediaMentions, exposureLevel: mediaMentions > 25 ? 'HIGH' : mediaMentions > 8 ? 'MEDIUM' : 'LOW' };
  },
  SEVICE_ONLINE_BETTING_PROPENSITY: ({ cpf, rng }) => {
    const propensityScore = rng.int(0, 100);
    return {
      cpf,
      propensityScore,
      propensityLevel: LEVELS[Math.min(2, Math.floor(propensityScore / 34))],
      indicators: [{ indicator: 'BETTING_DOMAINS_ACCESS', value: rng.pick(['LOW', 'MEDIUM', 'HIGH']) }],
    };
  },
  SERVICE_CONFIRM_PHONE: ({ rng, request }) => {
    // The phone's owner is a deterministic person: the PRNG is seeded by the phone number.
    const cpf = randomCpf(rng);
    return { phone: request.phone, matched: true, person: { name: personProfile(cpf).name, document: cpf } };
  },
  SERVICE_DOMAINS_CPF: ({ cpf, rng }) => {
    const domains = rng.bool(0.3)
      ? [{ domain: `${personProfile(cpf).name.split(' ')[1]!.toLowerCase()}${rng.digits(2)}.com.br`, createdAt: rng.date(2008, 2025) }]
      : [];
    return { cpf, totalDomains: domains.length, domains };
  },
  SERVICE_RELATED_PEOPLE_EMAILS: ({ cpf, rng }) => {
    const people = Array.from({ length: rng.int(0, 2) }, () => {
      const name = fullName(rng, rng.bool() ? 'F' : 'M');
      return {
        name,
        email: `${name
          .split(' ')[0]!
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z]/g, '')}${rng.digits(3)}@example.com`,
      };
    });
    return {
      cpf,
      totalRelatedPeopleEmails: people.length,
      relatedPeopleEmailsList: people.map((x) => x.email),
      relatedPeopleEmails: people,
    };
  },
  SERVICE_ADDRESS: ({ cpf }) => {
    const p = personProfile(cpf);
    return { cpf, totalAddresses: 1, addresses: [p.address] };
  },
};

/** The seed of the PRNG for a person query: the phone service is keyed by phone, every other by CPF. */
export function personSeedKey(service: string, request: Readonly<Record<string, string>>, cpf: string | undefined): string {
  return service === 'SERVICE_CONFIRM_PHONE' ? `phone:${(request.phone ?? '').replace(/\D/g, '')}` : `cpf:${cpf ?? ''}`;
}
