import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  KNOWN_CALL_ALIASES,
  SERVICE_CATALOG,
  SERVICE_IDS,
  callAlias,
  isServiceId,
  serviceForAlias,
  serviceSpec,
} from '@onboarding-kit/contract';

test('the catalog holds every identifier the upstream documents (docs/upstream-api.md#service-catalog), the misspelled one untouched', () => {
  assert.equal(isServiceId('SEVICE_ONLINE_BETTING_PROPENSITY'), true);
  assert.equal(isServiceId('SERVICE_ONLINE_BETTING_PROPENSITY'), false);
  const counts = { person: 0, image: 0, company: 0, 'identifier-only': 0 };
  for (const id of SERVICE_IDS) counts[serviceSpec(id).group]++;
  assert.deepEqual(counts, { person: 35, image: 9, company: 25, 'identifier-only': 18 });
  for (const id of [
    'SERVICE_PEP',
    'SERVICE_OCR',
    'SERVICE_FACE_INDEX',
    'SERVICE_RF_QSA',
    'SERVICE_PGMEI',
    'SERVICE_SCORING_CREDIT_RISK_PERSON',
    'SERVICE_DOMAINS_CNPJ',
  ]) {
    assert.equal(isServiceId(id), true, id);
  }
});

test('image services say which field holds a document and which a face', () => {
  assert.deepEqual(SERVICE_CATALOG.SERVICE_OCR.images, { image1: 'document', image2: 'document' });
  assert.deepEqual(SERVICE_CATALOG.SERVICE_FACE_INDEX.images, { image1: 'face' });
  assert.deepEqual(SERVICE_CATALOG.SERVICE_DIGITAL_DOCUMENTOSCOPY.images, { image1: 'document', image2: 'document', selfie1: 'face' });
  assert.deepEqual(SERVICE_CATALOG.SERVICE_DIGITAL_DOCUMENTOSCOPY.required, ['key', 'image1', 'image2', 'selfie1']);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_OCR.required, ['documentType', 'image1']);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_OCR.optional, ['image2']);
  for (const id of SERVICE_IDS) {
    const spec = serviceSpec(id);
    for (const field of Object.keys(spec.images ?? {})) {
      assert.ok([...spec.required, ...spec.optional].includes(field as never), `${id}.${field} is a request field`);
    }
  }
});

test("required fields follow the upstream's R and O marks", () => {
  assert.deepEqual(SERVICE_CATALOG.SERVICE_ARREST_WARRANT.required, ['nome', 'motherName', 'fatherName', 'birthDate', 'cpf']);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_NOTHING_RECORD_LAWSUITS.required, ['cpf', 'court', 'uf', 'sphere']);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_CONFIRM_PHONE.required, ['phone']);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_RFB_PF.required, []);
  assert.equal(SERVICE_CATALOG.SERVICE_PGMEI.requestShown, false);
  assert.equal(SERVICE_CATALOG.SERVICE_RFB_PJ.resultPartial, true);
  assert.deepEqual(SERVICE_CATALOG.SERVICE_PEP.result, ['cpf', 'isPep', 'positions']);
});

test('aliases are data: a product may call the inspection SERVICE_DOCUMENTOSCOPY', () => {
  const aliases = { SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' } as const;
  assert.equal(callAlias('SERVICE_DIGITAL_DOCUMENTOSCOPY', aliases), 'SERVICE_DOCUMENTOSCOPY');
  assert.equal(callAlias('SEVICE_ONLINE_BETTING_PROPENSITY'), 'SEVICE_ONLINE_BETTING_PROPENSITY');
  assert.equal(serviceForAlias('SERVICE_DOCUMENTOSCOPY', aliases), 'SERVICE_DIGITAL_DOCUMENTOSCOPY');
  assert.equal(serviceForAlias('SERVICE_PEP'), 'SERVICE_PEP');
  assert.equal(serviceForAlias('SERVICE_NOPE'), undefined);
  assert.deepEqual(KNOWN_CALL_ALIASES.SERVICE_DIGITAL_DOCUMENTOSCOPY, ['SERVICE_DOCUMENTOSCOPY']);
});
