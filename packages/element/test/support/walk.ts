/** Walks a page's `<onboarding-flow>` through the steps before the photos. */
import type { Page } from 'playwright-core';

/** Intro, consent, CPF (prefilled), document type (the only one): on to the first photo step. */
export async function walkToFirstPhoto(p: Page): Promise<void> {
  const flow = p.locator('onboarding-flow');
  await flow.locator('section[data-step="intro"]').waitFor();
  await flow.locator('button.primary').click();
  await flow.locator('section[data-step="consent"]').waitFor();
  await flow.locator('#consent').check();
  await flow.locator('button[type=submit]').click();
  await flow.locator('section[data-step="cpf"]').waitFor();
  await flow.locator('button[type=submit]').click();
  await flow.locator('section[data-step="document-type"]').waitFor();
  await flow.locator('button[type=submit]').click();
  await flow.locator('section[data-step="document-front"]').waitFor();
}
