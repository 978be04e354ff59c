/**
 * Deterministic people and companies: every service about the same CPF/CNPJ agrees on the name,
 * birth date, address and owners, because they all derive from one profile seeded by the tax id.
 */
import { cnpjCheckDigits, cpfCheckDigits } from '@onboarding-kit/contract';
import { Rng } from './prng.js';

const FIRST_F = ['Maria', 'Ana', 'Juliana', 'Fernanda', 'Patrícia', 'Aline', 'Camila', 'Beatriz', 'Larissa', 'Renata'];
const FIRST_M = ['João', 'José', 'Carlos', 'Paulo', 'Lucas', 'Marcos', 'Rafael', 'Pedro', 'Gabriel', 'Thiago'];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
];
export const PLACES: readonly { city: string; state: string }[] = [
  { city: 'São Paulo', state: 'SP' },
  { city: 'Campinas', state: 'SP' },
  { city: 'Rio de Janeiro', state: 'RJ' },
  { city: 'Belo Horizonte', state: 'MG' },
  { city: 'Curitiba', state: 'PR' },
  { city: 'Porto Alegre', state: 'RS' },
  { city: 'Salvador', state: 'BA' },
  { city: 'Recife', state: 'PE' },
  { city: 'Fortaleza', state: 'CE' },
  { city: 'Brasília', state: 'DF' },
  { city: 'Goiânia', state: 'GO' },
  { city: 'Florianópolis', state: 'SC' },
];
const STREETS = ['Rua das Flores', 'Avenida Paulista', 'Rua XV de Novembro', 'Avenida Brasil', 'Rua da Consolação', 'Rua Sete de Setembro'];
const COMPANY_WORDS = ['Comércio', 'Serviços', 'Tecnologia', 'Alimentos', 'Construções', 'Logística', 'Consultoria', 'Indústria'];
/** The ninth CPF digit names the fiscal region that issued it. */
const FISCAL_REGIONS = [
  '10ª Região Fiscal (RS)',
  '1ª Região Fiscal (DF, GO, MT, MS, TO)',
  '2ª Região Fiscal (AC, AM, AP, PA, RO, RR)',
  '3ª Região Fiscal (CE, MA, PI)',
  '4ª Região Fiscal (AL, PB, PE, RN)',
  '5ª Região Fiscal (BA, SE)',
  '6ª Região Fiscal (MG)',
  '7ª Região Fiscal (ES, RJ)',
  '8ª Região Fiscal (SP)',
  '9ª Região Fiscal (PR, SC)',
];

export interface Address {
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
  postalCode: string;
}

export interface PersonProfile {
  cpf: string;
  name: string;
  motherName: string;
  fatherName: string;
  gender: 'F' | 'M';
  birthDate: string;
  address: Address;
  fiscalRegion: string;
}

export interface CompanyProfile {
  cnpj: string;
  officialName: string;
  foundationDate: string;
  address: Address;
  owners: { name: string; cpf: string; share: number }[];
}

export function fullName(rng: Rng, gender: 'F' | 'M'): string {
  return `${rng.pick(gender === 'F' ? FIRST_F : FIRST_M)} ${rng.pick(LAST)} ${rng.pick(LAST)}`;
}

function address(rng: Rng): Address {
  const place = rng.pick(PLACES);
  return {
    street: rng.pick(STREETS),
    number: String(rng.int(1, 2999)),
    complement: rng.bool(0.4) ? `Apto ${rng.int(11, 184)}` : '',
    district: rng.pick(['Centro', 'Jardim América', 'Vila Nova', 'Boa Vista', 'Santa Cecília']),
    city: place.city,
    state: place.state,
    postalCode: `${rng.digits(5)}-${rng.digits(3)}`,
  };
}

/** A valid CPF drawn from `rng` (for owners, face-base matches and the like). */
export function randomCpf(rng: Rng): string {
  const base = String(rng.int(100_000_000, 999_999_999));
  return base + cpfCheckDigits(base);
}

/** A valid numeric CNPJ drawn from `rng`. */
export function randomCnpj(rng: Rng): string {
  const base = `${rng.digits(8)}0001`;
  return base + cnpjCheckDigits(base);
}

export function personProfile(cpf: string): PersonProfile {
  const rng = new Rng(`person:${cpf}`);
  const gender = rng.bool() ? 'F' : 'M';
  const name = fullName(rng, gender);
  const surname = name.split(' ').slice(1).join(' ');
  return {
    cpf,
    name,
    motherName: `${rng.pick(FIRST_F)} ${rng.pick(LAST)} ${surname.split(' ')[0]}`,
    fatherName: `${rng.pick(FIRST_M)} ${surname}`,
    gender,
    birthDate: rng.date(1950, 2004),
    address: address(rng),
    fiscalRegion: FISCAL_REGIONS[Number(cpf[8] ?? 0)]!,
  };
}

export function companyProfile(cnpj: string): CompanyProfile {
  const rng = new Rng(`company:${cnpj}`);
  const owners = Array.from({ length: rng.int(1, 3) }, () => ({
    name: fullName(rng, rng.bool() ? 'F' : 'M'),
    cpf: randomCpf(rng),
    share: 0,
  }));
  let left = 100;
  owners.forEach((o, i) => {
    o.share = i === owners.length - 1 ? left : rng.int(1, left - (owners.length - 1 - i));
    left -= o.share;
  });
  return {
    cnpj,
    officialName: `${rng.pick(LAST)} ${rng.pick(COMPANY_WORDS)} ${rng.pick(['LTDA', 'S.A.', 'EIRELI', 'ME'])}`.toUpperCase(),
    foundationDate: rng.date(1985, 2022),
    address: address(rng),
    owners,
  };
}

/** Whole years between `birthDate` (yyyy-MM-dd) and `today`. */
export function ageOn(birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age;
}

/** `yyyy-MM-dd` of a Date, UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
