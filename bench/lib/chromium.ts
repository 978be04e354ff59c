/**
 * One headless Chromium for the browser sections, with the flags of TOOLCHAIN.md and a fake
 * camera that loops the element's test card picture (1280x720 Y4M). The camera permission is
 * granted by the fake UI flag: the bench measures capture, not permission prompts.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, fakeCameraArgs } from '../../packages/element/test-support/chromium.mjs';


// y4m.mjs ships no type declarations: load it through a computed specifier and type what is used.
const Y4M_MODULE = new URL('../../packages/element/test-support/y4m.mjs', import.meta.url).href;

export async function writeCardY4m(): Promise<string> {
  const mod = (await import(Y4M_MODULE)) as { writeCardY4m(): string };
  return mod.writeCardY4m();
}

export async function launchChromium(): Promise<Browser> {
  const y4m = await writeCardY4m();
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...fakeCameraArgs(y4m), '--use-fake-ui-for-media-stream'],
    timeout: 60_000,
  });
}
