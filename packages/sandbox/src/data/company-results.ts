/**
 * Result generators for the company services (docs/upstream-api.md#company-services): exactly the
 * listed members, from the CNPJ's profile and a PRNG seeded by service + CNPJ. Members the upstream
 * marks `(+)` but does not name are not invented (docs/upstream-api.md, rule 8).
 */
import { companyProfile, isoDate, randomCnpj } from './profiles.js';
import type { Rng } from './prng.js';

export interface CompanyInput {
  cnpj: string;
  rng: Rng;
  today: Date;
}

type Generator = (input: CompanyInput) => Record<string, unknown>;

const addDays = (date: Date, days: number): string => isoDate(new Date(date.getTime() + days * 86_400_000));

export const COMPANY_RESULTS: Readonly<Record<string, Generator>> = {
  SERVICE_OWNERS_LAWSUITS_DISTRIBUTION: ({ cnpj, rng }) => {
    const owners = companyProfile(cnpj).owners;
    const counts = owners.map(() => rng.int(0, 6));
    return {
      cnpj,
      companyOwnersLawsuitsTotalOwners: owners.length,
      companyOwnersLawsuitsMaxPerOwner: Math.max(...counts),
      companyOwnersLawsuitsAvgPerOwner: Number((counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(2)),
      companyOwnersLawsuitsMinPerOwner: Math.min(...counts),
      companyOwnersLawsuitsAsAuthor: rng.int(0, Math.max(...counts)),
    };
  },
  SERVICE_OWNERS_ELECTORAL_DONORS_CNPJ: ({ cnpj, rng }) => ({
    cnpj,
    ownersDonations: companyProfile(cnpj)
      .owners.filter(() => rng.bool(0.2))
      .map((o) => ({ name: o.name, cpf: o.cpf, year: rng.pick([2018, 2020, 2022, 2024]), amount: rng.money(100, 10_000) })),
  }),
  SERVICE_DOMAINS_CNPJ: ({ cnpj, rng }) => {
    const word = companyProfile(cnpj)
      .officialName.split(' ')[0]!
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '');
    const domains = [{ domain: `${word}${rng.digits(2)}.com.br`, createdAt: rng.date(2005, 2025) }];
    return { cnpj, totalDomains: domains.length, domains };
  },
  SERVICE_ADDRESSES_EXTENDED_CNPJ: ({ cnpj, rng }) => {
    const a = companyProfile(cnpj).address;
    const first = rng.date(2010, 2018);
    const last = rng.date(2019, 2025);
    const totals = (n: number) => ({ total: n, firstConfirmedDate: first, lastConfirmedDate: last });
    return {
      cnpj,
      addresses: [{ ...a, country: 'BRASIL', type: 'WORK', active: true, main: true }],
      addressesExtendedTotal: totals(1),
      addressesExtendedTotalActive: totals(1),
      addressesExtendedTotalWork: totals(1),
      addressesExtendedTotalPersonal: totals(0),
    };
  },
  SERVICE_MEDIA_PROFILE_EXPOSURE_PJ: ({ cnpj, rng }) => {
    const mediaMentions = rng.int(0, 60);
    return { cnpj, mediaMentions, exposureLevel: mediaMentions > 30 ? 'HIGH' : mediaMentions > 10 ? 'MEDIUM' : 'LOW' };
  },
  SERVICE_COMPANY_KYC_OWNERS: ({ cnpj }) => {
    const owners = companyProfile(cnpj).owners.map((o) => ({
      name: o.name,
      document: o.cpf,
      sanctionsHistory: [],
      highConfidenceSanctionsHistory: [],
      pepHistories: [],
    }));
    return {
      cnpj,
      totalCurrentPep: 0,
      totalHistoricallyPEP: 0,
      totalCurrentSanctioned: 0,
      totalHistoricallySanctioned: 0,
      averageSanctionsPerOwner: 0,
      pepPercentage: 0,
      kycOwners: owners,
      companyOwners: [],
      peopleOwners: owners,
    };
  },
  SERVICE_JURIDICAL_PROCESSES_PJ_OWNERS: ({ cnpj, rng }) => ({
    cnpj,
    ownersProcesses: companyProfile(cnpj).owners.map((o) => ({ name: o.name, cpf: o.cpf, totalProcesses: rng.int(0, 4) })),
  }),
  SERVICE_RF_QSA: ({ cnpj, rng }) => {
    const capital = rng.int(10, 5_000) * 1000;
    return {
      cnpj,
      qsaCompanyType: rng.pick(['SOCIEDADE EMPRESARIA LIMITADA', 'SOCIEDADE ANONIMA FECHADA']),
      qsaCompanySize: rng.pick(['ME', 'EPP', 'DEMAIS']),
      qsaCapital: capital.toLocaleString('pt-BR', { minimumFractionDigits: 2 }),
      qsaCapitalValue: capital.toFixed(2),
      qsaCnae: `${rng.digits(4)}-${rng.digits(1)}/${rng.digits(2)}`,
    };
  },
  SERVICE_COMPANY_RELATIONSHIP: ({ cnpj, rng }) => ({
    cnpj,
    owners: companyProfile(cnpj).owners.map((o) => ({ name: o.name, document: o.cpf, participation: o.share })),
    relatedCompanies: rng.bool(0.4) ? [{ cnpj: randomCnpj(rng), officialName: companyProfile(randomCnpj(rng)).officialName }] : [],
  }),
  SERVICE_ECONOMIC_GROUP_RELATIONSHIPS: ({ cnpj, rng }) => {
    const current = rng.bool(0.4) ? [{ cnpj: randomCnpj(rng), relationship: 'SAME_OWNER' }] : [];
    const historical = rng.bool(0.3) ? [{ cnpj: randomCnpj(rng), relationship: 'FORMER_OWNER' }] : [];
    const all = [...current, ...historical];
    return {
      cnpj,
      totalEconomicGroupRelationships: all.length,
      economicGroupRelationshipsSummary: `${all.length} relacionamento(s)`,
      economicGroupRelationships: all,
      economicGroupCurrentRelationships: current,
      economicGroupHistoricalRelationships: historical,
    };
  },
  SERVICE_CGU_NEGATIVE_CERTIFICATE_COMPANY: ({ cnpj, today }) => ({
    cnpj,
    cguSummary: 'Nada consta',
    cguBaseStatus: 'AVAILABLE',
    cguClearance: true,
    cguValidUntil: addDays(today, 30),
    cguIssueDate: isoDate(today),
  }),
  SERVICE_PCD_COMPANY: ({ cnpj, rng, today }) => ({
    cnpj,
    pcdSummary: 'Certidão emitida',
    pcdBaseStatus: 'AVAILABLE',
    pcdExpeditionDate: isoDate(today),
    pcdCertificateUrl: `https://sandbox.invalid/evidence/pcd/${cnpj}.pdf`,
    pcdContent: `Certidão ${rng.digits(10)} para ${companyProfile(cnpj).officialName}`,
  }),
  SERVICE_INVESTMENT_FUND_DATA: ({ cnpj, rng }) => {
    const list = rng.bool(0.3)
      ? [{ fund: `FUNDO ${rng.digits(4)} FIM`, value: rng.money(1_000, 500_000), date: rng.date(2020, 2025) }]
      : [];
    return {
      cnpj,
      totalMovimentations: list.length,
      investmentFundDataSummary: `${list.length} movimentação(ões)`,
      investmentFundData: list,
    };
  },
  SERVICE_COMPANY_EVOLUTION: ({ cnpj, rng }) => ({
    cnpj,
    companyEvolutionSummary: rng.pick(['Crescimento', 'Estável', 'Retração']),
    companyEvolutionStats: [
      { year: 2023, employees: rng.int(1, 80) },
      { year: 2024, employees: rng.int(1, 90) },
    ],
  }),
  SERVICE_FGTS: ({ cnpj, rng, today }) => ({
    cnpj,
    fgtsStatus: 'REGULAR',
    fgtsCertificateNumber: rng.digits(20),
    fgtsCertificateValidity: addDays(today, 30),
    fgtsCertificateText: `Certificado de Regularidade do FGTS para ${companyProfile(cnpj).officialName}`,
    fgtsSummary: 'Empresa regular perante o FGTS',
  }),
  SERVICE_SCORING_CREDIT_RISK_COMPANY: ({ cnpj, rng }) => {
    const negativeFlagsCount = rng.bool(0.25) ? rng.int(1, 4) : 0;
    return {
      cnpj,
      riskLevel: negativeFlagsCount ? 'HIGH' : rng.pick(['LOW', 'MEDIUM']),
      riskClassification: negativeFlagsCount ? 'D' : rng.pick(['A', 'B', 'C']),
      hasRestrictions: negativeFlagsCount > 0,
      negativeFlagsCount,
      creditBureauSummary: negativeFlagsCount ? `${negativeFlagsCount} apontamento(s)` : 'Sem apontamentos',
    };
  },
  SERVICE_HISTORY_BASIC_DATA: ({ cnpj, rng, today }) => {
    const p = companyProfile(cnpj);
    const changes = rng.int(0, 4);
    return {
      cnpj,
      historyBasicDataCurrentName: p.officialName,
      historyBasicDataAge: today.getUTCFullYear() - Number(p.foundationDate.slice(0, 4)),
      historyBasicDataTotalChanges: changes,
      historyBasicDataSummary: `${changes} alteração(ões) cadastral(is)`,
      historyBasicDataStats: { nameChanges: Math.min(changes, 1), addressChanges: changes - Math.min(changes, 1) },
    };
  },
  SERVICE_OWNERS_INFLUENCE: ({ cnpj, rng }) => {
    const owners = companyProfile(cnpj).owners;
    return {
      cnpj,
      influenceScore: rng.int(0, 100),
      ownersInfluenceSummary: `${owners.length} sócio(s) analisado(s)`,
      ownersInfluence: owners.map((o) => ({ name: o.name, score: rng.int(0, 100) })),
    };
  },
  SERVICE_MARKETPLACE_DATA: ({ cnpj, rng }) => {
    const used = rng.int(0, 3);
    return {
      cnpj,
      totalMarketplacesUsed: used,
      totalStoresOperated: used,
      marketplaceWithMostProducts: used ? 'MARKETPLACE A' : '',
      marketplaceWithBestRating: used ? 'MARKETPLACE B' : '',
      totalProductsListed: used ? rng.int(1, 900) : 0,
    };
  },
  SERVICE_CIVIL_CONSTRUCTION: ({ cnpj, rng }) => {
    const records = rng.bool(0.2) ? [{ cno: rng.digits(12), active: true, city: companyProfile(cnpj).address.city }] : [];
    return {
      cnpj,
      totalCivilConstructionRecords: records.length,
      totalActiveCivilConstructionRecords: records.length,
      civilConstructionSummary: `${records.length} obra(s)`,
      civilConstructionRecords: records,
    };
  },
  SERVICE_SIMPLES_COMPANY: ({ cnpj, rng }) => ({
    cnpj,
    simplesSummary: 'Optante pelo Simples Nacional',
    simplesOfficialName: companyProfile(cnpj).officialName,
    simplesNationalStatus: rng.pick(['OPTANTE', 'NAO OPTANTE']),
    simplesMeiStatus: 'NAO OPTANTE',
    simplesCertificateUrl: `https://sandbox.invalid/evidence/simples/${cnpj}.pdf`,
  }),
  SERVICE_BUREAU_OWNER_PARTICIPATION_DATA_COMPANY: ({ cnpj }) => {
    const owners = companyProfile(cnpj).owners;
    return {
      cnpj,
      numberOfOwners: owners.length,
      numberOfPeopleAsOwners: owners.length,
      numberOfCompaniesAsOwners: 0,
      hasMajorityStakeHolder: owners.some((o) => o.share > 50),
      averageParticipationPercentage: Number((100 / owners.length).toFixed(2)),
    };
  },
};
