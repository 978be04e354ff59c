import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_CATALOG, SERVICE_IDS, classify, stripNonContract, type ServiceId } from '@onboarding-kit/contract';
import { NO_FACE_PNG_BASE64, NO_FACE_PNG_SHA256, SAMPLE_PNG_BASE64, TEST_IDENTITIES } from '../src/index.js';
import { createHash } from 'node:crypto';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import { DOC_KEY, requestFor, someCpfs } from './fixtures.js';
import {
  NOT_AN_IMAGE_BASE64,
  TRANSPORTS,
  TRUNCATED_PNG_BASE64,
  getToken,
  harness,
  postJson,
  query,
  tinyJpegBase64,
  type Json,
} from './helpers.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^\d+\.\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NON_CONTRACT = ['fieldsOutput', 'required', 'enabled', 'valid', 'callService', 'nextStep', 'services'];

/** What a successful answer must hold for a catalog service: the listed members, or the echoed identifier. */
function expectedMembers(id: ServiceId): string[] | 'no-data' {
  const spec = SERVICE_CATALOG[id];
  if (spec.result.length > 0) return [...spec.result];
  if (spec.group === 'company') return ['cnpj'];
  if (spec.group === 'image') return 'no-data';
  return ['cpf'];
}

for (const transport of TRANSPORTS) {
  describe(`service-api over ${transport}`, () => {
    test('every catalog service answers exactly the members docs/upstream-api.md#service-catalog lists (or echoes the identifier)', async () => {
      const h = await harness(transport, { processingMs: 0 });
      try {
        const token = await getToken(h.fetch);
        for (const id of SERVICE_IDS) {
          const envelope = await query(h.fetch, token, requestFor(id));
          const expected = expectedMembers(id);
          assert.equal(envelope.status.code, 200, `${id}: ${envelope.status.message}`);
          assert.match(envelope.externalId, UUID);
          if (expected === 'no-data') {
            assert.deepEqual(envelope.result, {}, id);
            assert.ok(envelope.status.message.length > 0);
            assert.equal(classify(envelope).kind, 'no-data');
            continue;
          }
          assert.deepEqual(Object.keys(envelope.result).sort(), expected.sort(), id);
          assert.ok(['Success', 'Consulta realizada com sucesso'].includes(envelope.status.message), id);
          assert.equal(classify(envelope).kind, 'success', id);
          // Non-contract members and nulls are there, and stripping them leaves the result intact.
          for (const field of NON_CONTRACT) assert.ok(field in envelope, `${id} lacks ${field}`);
          assert.equal(envelope.nextStep, null);
          assert.deepEqual(stripNonContract(envelope).result, envelope.result);
        }
      } finally {
        await h.close();
      }
    });

    test('the misspelled SEVICE_ONLINE_BETTING_PROPENSITY works; the corrected spelling has no access', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        const ok = await query(h.fetch, token, { service: 'SEVICE_ONLINE_BETTING_PROPENSITY', cpf: TEST_IDENTITIES.cpfApproved });
        assert.equal(ok.status.code, 200);
        assert.deepEqual(Object.keys(ok.result).sort(), ['cpf', 'indicators', 'propensityLevel', 'propensityScore']);
        const denied = await query(h.fetch, token, { service: 'SERVICE_ONLINE_BETTING_PROPENSITY', cpf: TEST_IDENTITIES.cpfApproved });
        assert.deepEqual(denied.status, { code: 400, message: "Don't have access to the service" });
        assert.equal(classify(denied).kind, 'no-access');
      } finally {
        await h.close();
      }
    });

    test('product configuration: aliases replace the documented identifier; enabledServices limits access', async () => {
      const h = await harness(transport, {
        enabledServices: ['SERVICE_PEP', 'SERVICE_DOCUMENTOSCOPY', 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT'],
        aliases: { SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' },
      });
      try {
        const token = await getToken(h.fetch);
        const viaAlias = await query(h.fetch, token, requestFor('SERVICE_DIGITAL_DOCUMENTOSCOPY', { service: 'SERVICE_DOCUMENTOSCOPY' }));
        assert.equal(viaAlias.status.code, 200);
        assert.equal(viaAlias.result.key, DOC_KEY);
        assert.equal(viaAlias.callService, 'SERVICE_DOCUMENTOSCOPY');
        for (const service of [
          'SERVICE_DIGITAL_DOCUMENTOSCOPY',
          'SERVICE_PERSON_DATA_ENRICHMENT',
          'SERVICE_NOT_IN_ANY_CATALOG',
          'service_pep',
        ]) {
          const denied = await query(h.fetch, token, {
            ...requestFor('SERVICE_DIGITAL_DOCUMENTOSCOPY'),
            cpf: TEST_IDENTITIES.cpfApproved,
            service,
          });
          assert.deepEqual(denied.status, { code: 400, message: "Don't have access to the service" }, service);
        }
        assert.equal((await query(h.fetch, token, requestFor('SERVICE_PEP'))).status.code, 200);
      } finally {
        await h.close();
      }
    });

    test('in-body errors of docs/upstream-api.md#errors-and-classification: missing image/URL/key, missing required field, no face, inactive product', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        const missingImage = { code: 400, message: 'Imagem obrigatória não encontrada' };
        const cases: [ServiceId, string][] = [
          ['SERVICE_FACE_INDEX', 'image1'],
          ['SERVICE_FACE_MATCH', 'image2'],
          ['SERVICE_DIGITAL_DOCUMENTOSCOPY', 'selfie1'],
          ['SERVICE_DIGITAL_DOCUMENTOSCOPY', 'key'],
          ['SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', 'key'],
          ['SERVICE_OCR', 'image1'],
          ['SERVICE_OCR_CNPJ_CARD', 'image1'],
        ];
        for (const [id, field] of cases) {
          const body = requestFor(id);
          delete body[field];
          const res = await query(h.fetch, token, body);
          assert.deepEqual(res.status, missingImage, `${id} without ${field}`);
          assert.equal(classify(res).kind, 'missing-image');
          // An empty string is as missing as an absent field.
          assert.deepEqual((await query(h.fetch, token, { ...body, [field]: '' })).status, missingImage);
        }
        // A URL stands in for image1 only when given; without both, the image is missing.
        const noUrl = requestFor('SERVICE_OCR');
        delete noUrl.image1;
        assert.deepEqual((await query(h.fetch, token, { ...noUrl, image1Url: '' })).status, missingImage);

        for (const [id, field] of [
          ['SERVICE_PEP', 'cpf'],
          ['SERVICE_RF_QSA', 'cnpj'],
          ['SERVICE_OCR', 'documentType'],
          ['SERVICE_CRIMINAL_RECORD_CIVIL', 'uf'],
          ['SERVICE_CONFIRM_PHONE', 'phone'],
        ] as [ServiceId, string][]) {
          const body = requestFor(id);
          delete body[field];
          const res = await query(h.fetch, token, body);
          assert.deepEqual(res.status, { code: 400, message: `Campo obrigatório não informado: ${field}` }, id);
        }
        assert.deepEqual((await query(h.fetch, token, { cpf: TEST_IDENTITIES.cpfApproved })).status, {
          code: 400,
          message: 'Campo obrigatório não informado: service',
        });
        assert.deepEqual((await query(h.fetch, token, { service: 'SERVICE_PEP', cpf: '529.982.247-26' })).status, {
          code: 400,
          message: 'CPF inválido',
        });
        assert.equal((await query(h.fetch, token, { service: 'SERVICE_PEP', cpf: 52998224725 })).status.code, 400);
        assert.equal(
          (await query(h.fetch, token, { service: 'SERVICE_PEP', cpf: '529.982.247-25', extra: { any: 1 } })).status.code,
          200,
          'unknown members are ignored',
        );

        assert.equal(createHash('sha256').update(Buffer.from(NO_FACE_PNG_BASE64, 'base64')).digest('hex'), NO_FACE_PNG_SHA256);
        for (const [id, field] of [
          ['SERVICE_FACE_INDEX', 'image1'],
          ['SERVICE_FACE_MATCH', 'image2'],
          ['SERVICE_VALIDATION_CNH', 'image1'],
          ['SERVICE_DIGITAL_DOCUMENTOSCOPY', 'selfie1'],
        ] as [ServiceId, string][]) {
          const res = await query(h.fetch, token, requestFor(id, { [field]: NO_FACE_PNG_BASE64 }));
          assert.deepEqual(res.status, { code: 400, message: 'Face nao encontrada na base' }, id);
          assert.equal(classify(res).kind, 'face-not-found');
        }
        // The same bytes as a document are just a (tiny) document.
        assert.equal((await query(h.fetch, token, requestFor('SERVICE_OCR', { image1: NO_FACE_PNG_BASE64 }))).status.code, 200);

        const inactive = await query(h.fetch, token, requestFor('SERVICE_PEP', { cpf: TEST_IDENTITIES.cpfInactiveProduct }));
        assert.equal(inactive.status.code, 401);
        assert.equal(classify(inactive).kind, 'unauthorized');
      } finally {
        await h.close();
      }
    });

    test('an image that is not decodable is REFUSED with a message, never a fabricated success', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
        for (const bad of [NOT_AN_IMAGE_BASE64, TRUNCATED_PNG_BASE64, pdf, 'not base64 at all!']) {
          for (const [id, field] of [
            ['SERVICE_OCR', 'image1'],
            ['SERVICE_FACE_INDEX', 'image1'],
            ['SERVICE_DIGITAL_DOCUMENTOSCOPY', 'image2'],
            ['SERVICE_OCR', 'image2'],
          ] as [ServiceId, string][]) {
            const res = await query(h.fetch, token, requestFor(id, { [field]: bad }));
            assert.equal(res.onboardingStatus, 'REFUSED', `${id} ${field}`);
            assert.deepEqual(res.result, {});
            assert.match(res.status.message, new RegExp(field));
            assert.equal(classify(res).kind, 'refused');
          }
        }
        // Both accepted image forms work: pure base64 and a data URI; JPEG too.
        for (const good of [`data:image/png;base64,${SAMPLE_PNG_BASE64}`, tinyJpegBase64()]) {
          assert.equal((await query(h.fetch, token, requestFor('SERVICE_OCR', { image1: good }))).status.code, 200);
        }
      } finally {
        await h.close();
      }
    });

    test('result: {} with code 200 and a reason for the no-balance identities', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        for (const body of [
          requestFor('SERVICE_PEP', { cpf: TEST_IDENTITIES.cpfNoBalance }),
          requestFor('SERVICE_RF_QSA', { cnpj: TEST_IDENTITIES.cnpjNoBalance }),
        ]) {
          const res = await query(h.fetch, token, body);
          assert.deepEqual(res.result, {});
          assert.deepEqual(res.status, { code: 200, message: 'Saldo insuficiente para realizar a consulta' });
          assert.equal(classify(res).kind, 'no-data');
        }
      } finally {
        await h.close();
      }
    });

    test('a body that is not a JSON object is a real HTTP 400', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        for (const body of ['{"service":', '"SERVICE_PEP"', '[1]']) {
          const res = await postJson(h.fetch, '/api/service-api', body, token);
          assert.equal(res.status, 400);
          assert.equal(((await res.json()) as Json).status.code, 400);
        }
      } finally {
        await h.close();
      }
    });
  });
}

describe('service-api data', () => {
  test('deterministic: the same service and CPF/CNPJ give the same result, in any sandbox', async () => {
    const a = await harness('app.request');
    const b = await harness('app.request');
    try {
      const [ta, tb] = [await getToken(a.fetch), await getToken(b.fetch)];
      for (const id of [
        'SERVICE_PERSON_DATA_ENRICHMENT',
        'SERVICE_BUREAU_CREDIT_SCORE_PERSON',
        'SERVICE_RF_QSA',
        'SERVICE_FACE_MATCH',
        'SERVICE_OCR',
      ] as ServiceId[]) {
        const first = await query(a.fetch, ta, requestFor(id));
        const again = await query(a.fetch, ta, requestFor(id));
        const elsewhere = await query(b.fetch, tb, requestFor(id));
        assert.deepEqual(again.result, first.result, id);
        assert.deepEqual(elsewhere.result, first.result, id);
        assert.equal(again.status.message, first.status.message);
        assert.notEqual(again.externalId, first.externalId);
      }
      const [c1, c2] = someCpfs(2);
      const r1 = await query(a.fetch, ta, requestFor('SERVICE_PERSON_DATA_ENRICHMENT', { cpf: c1! }));
      const r2 = await query(a.fetch, ta, requestFor('SERVICE_PERSON_DATA_ENRICHMENT', { cpf: c2! }));
      assert.notDeepEqual(r1.result, r2.result);
      // Services agree about one person.
      const onDemand = await query(a.fetch, ta, requestFor('SERVICE_RFB_PF_ON_DEMAND', { cpf: c1! }));
      assert.equal(onDemand.result.name, r1.result.name);
      assert.equal(onDemand.result.birthDate, r1.result.birthdate);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('both success messages occur, each fixed per query', async () => {
    const h = await harness('app.request');
    try {
      const token = await getToken(h.fetch);
      const messages = new Set<string>();
      for (const cpf of someCpfs(12)) messages.add((await query(h.fetch, token, requestFor('SERVICE_PEP', { cpf }))).status.message);
      assert.deepEqual([...messages].sort(), ['Consulta realizada com sucesso', 'Success']);
    } finally {
      await h.close();
    }
  });

  test('member types are those the upstream documents (booleans, integers, decimal strings, dates, arrays of objects)', async () => {
    const h = await harness('app.request');
    try {
      const token = await getToken(h.fetch);
      const seen = { debts: 0, benefits: 0, candidacies: 0, donations: 0, mei: 0 };
      for (const cpf of someCpfs(25)) {
        const get = async (id: ServiceId) => (await query(h.fetch, token, requestFor(id, { cpf }))).result as Json;
        const enrich = await get('SERVICE_PERSON_DATA_ENRICHMENT');
        assert.equal(typeof enrich.dead, 'boolean');
        assert.ok(Number.isInteger(enrich.age) && enrich.age >= 18);
        assert.ok(Number.isInteger(enrich.numberOfPeopleWithTheSameName) && Number.isInteger(enrich.nameWordCount));
        assert.match(enrich.birthdate, DATE);
        assert.match((await get('SERVICE_RFB_PF_ON_DEMAND')).birthDate, DATE);
        const bureau = await get('SERVICE_BUREAU_CREDIT_SCORE_PERSON');
        assert.ok(Number.isInteger(bureau.score) && Number.isInteger(bureau.restrictionCount));
        assert.equal(bureau.hasRestrictions, bureau.restrictionCount > 0);
        assert.equal(typeof bureau.creditBureauDetails, 'object');
        const debt = await get('SERVICE_ACTIVE_DEBT_PF');
        assert.match(debt.totalValue, DECIMAL);
        assert.equal(debt.totalDebts, debt.debts.length);
        for (const d of debt.debts) {
          assert.deepEqual(Object.keys(d).sort(), ['source', 'status', 'value']);
          assert.match(d.value, DECIMAL);
          seen.debts++;
        }
        const social = await get('SERVICE_SOCIAL_ASSISTANCE_EXTENDED');
        assert.ok(Number.isInteger(social.totalBenefits));
        for (const b of social.benefits) {
          assert.deepEqual(Object.keys(b).sort(), ['program', 'status']);
          seen.benefits++;
        }
        for (const c of (await get('SERVICE_ELECTION_CANDIDATE_DATA_CPF')).candidacies) {
          assert.deepEqual(Object.keys(c).sort(), ['party', 'role', 'status', 'year']);
          assert.ok(Number.isInteger(c.year));
          seen.candidacies++;
        }
        for (const d of (await get('SERVICE_ELECTORAL_DONORS_CPF')).donations) {
          assert.deepEqual(Object.keys(d).sort(), ['amount', 'recipient', 'year']);
          assert.match(d.amount, DECIMAL);
          seen.donations++;
        }
        for (const m of (await get('SERVICE_MEI')).meiCompanies) {
          assert.deepEqual(Object.keys(m).sort(), ['cnpj', 'officialName', 'status']);
          seen.mei++;
        }
        for (const a of (await get('SERVICE_PF_FINANCIAL_AND_ADDRESS')).addresses)
          assert.deepEqual(Object.keys(a).sort(), ['city', 'state']);
        for (const d of (await get('SERVICE_DEMOGRAPHIC_DATA_CPF')).demographicData)
          assert.deepEqual(Object.keys(d).sort(), ['indicator', 'value']);
        assert.equal(typeof (await get('SERVICE_PEP')).isPep, 'boolean');
      }
      for (const [name, count] of Object.entries(seen)) assert.ok(count > 0, `no ${name} element in 25 CPFs: the shape check never ran`);
      const phone = (await query(h.fetch, token, requestFor('SERVICE_CONFIRM_PHONE'))).result;
      assert.equal(typeof phone.matched, 'boolean');
      assert.deepEqual(Object.keys(phone.person).sort(), ['document', 'name']);
    } finally {
      await h.close();
    }
  });

  test('identifier-only and (+) services echo the identifier and invent nothing', async () => {
    const h = await harness('app.request');
    try {
      const token = await getToken(h.fetch);
      assert.deepEqual((await query(h.fetch, token, { service: 'SERVICE_PGMEI', cnpj: '11.222.333/0001-81' })).result, {
        cnpj: '11222333000181',
      });
      assert.deepEqual((await query(h.fetch, token, { service: 'SERVICE_LABOR_LAWSUITS', cpf: '529.982.247-25' })).result, {
        cpf: '52998224725',
      });
      const nothing = await query(h.fetch, token, { service: 'SERVICE_ONLINE_ADS' });
      assert.deepEqual(nothing.result, {});
      assert.equal(nothing.status.code, 200);
      assert.deepEqual((await query(h.fetch, token, requestFor('SERVICE_RFB_PJ'))).result, { cnpj: '11222333000181' });
      assert.deepEqual((await query(h.fetch, token, requestFor('SERVICE_PROFESSIONAL_HISTORY'))).result, { cpf: '52998224725' });
    } finally {
      await h.close();
    }
  });

  test('digital document inspection is asynchronous by key: IN_PROCESS, then APPROVED through the consult', async () => {
    const clock = new ManualClock();
    const h = await harness('app.request', { processingMs: 300, clock });
    try {
      const token = await getToken(h.fetch);
      const key = '0b7c6d5e-4f3a-4b2c-9d1e-0f1a2b3c4d5e';
      const unknown = await query(h.fetch, token, { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key });
      assert.deepEqual(unknown.result, {});
      assert.equal(unknown.status.code, 200);
      const submitted = await query(h.fetch, token, requestFor('SERVICE_DIGITAL_DOCUMENTOSCOPY', { key }));
      assert.equal(submitted.result.status, 'IN_PROCESS');
      assert.deepEqual(Object.keys(submitted.result.documentData).sort(), ['cpf', 'name']);
      for (const v of submitted.result.validations) assert.deepEqual(Object.keys(v).sort(), ['name', 'status']);
      await clock.advance(299);
      const early = await query(h.fetch, token, { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key });
      assert.equal(early.result.status, 'IN_PROCESS', 'still in process 1 ms before processingMs');
      await clock.advance(1);
      const later = await query(h.fetch, token, { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key: key.toUpperCase() });
      assert.equal(later.result.key, key);
      assert.equal(later.result.status, 'APPROVED');
      assert.deepEqual(later.result.fields, submitted.result.documentData);
      assert.ok(later.result.rules.length > 0 && later.result.rules.every((r: Json) => typeof r.evidence === 'string'));
      assert.deepEqual(
        (await query(h.fetch, token, { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key: 'not-a-uuid' })).status.code,
        400,
      );
    } finally {
      await h.close();
    }
  });
});
