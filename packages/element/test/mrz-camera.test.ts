/**
 * The document pictures as Chromium's fake camera shows them: each picture's Y4M looped by
 * `--use-file-for-fake-video-capture`, a frame taken from the camera's video in a real page (so
 * through the camera's YUV 4:2:0 and its limited range), and its luma read by the MRZ reader.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, isolatedContext } from '@onboarding-kit/testing/chromium';
import { DOCUMENT_PICTURES } from '@onboarding-kit/testing/document-pictures';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';
import { writeDocumentY4m } from '@onboarding-kit/testing/y4m';
import { readMrz } from '../src/reader/mrz/index.js';

let server: StaticServer;
before(async () => {
  server = await serveStatic({
    pages: { '/': '<!doctype html><html lang="en"><title>camera</title></html>' },
    mount: { prefix: '/none/', dir: '/nonexistent' },
  });
});
after(() => server?.close());

/** One camera frame's luma, from a page on loopback (a secure context) whose camera loops `id`. */
async function cameraFrame(id: string): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const browser = await chromium.launch(chromiumLaunchOptions({ cameraY4m: writeDocumentY4m(id) }));
  try {
    const { context } = await isolatedContext(browser, { permissions: ['camera'] });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const frame = await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 800 } } });
      const video = document.createElement('video');
      video.muted = true;
      video.srcObject = stream;
      await video.play();
      await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(video, 0, 0);
      for (const track of stream.getTracks()) track.stop();
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let luma = '';
      for (let p = 0; p < data.length; p += 4)
        luma += String.fromCharCode(Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!));
      return { luma: btoa(luma), width: canvas.width, height: canvas.height };
    });
    return { gray: new Uint8Array(Buffer.from(frame.luma, 'base64')), width: frame.width, height: frame.height };
  } finally {
    await browser.close();
  }
}

for (const id of ['cin-back-rotated', 'passport', 'cnh-front']) {
  const { expected } = DOCUMENT_PICTURES.find((p) => p.id === id)!;
  test(`${id} through the fake camera: ${expected.lines ? 'the zone is read exactly' : 'no zone'}`, async () => {
    const { gray, width, height } = await cameraFrame(id);
    assert.deepEqual([width, height], [1280, 800], 'the camera gives the picture at its own size');
    const reading = readMrz(gray, width, height);
    if (!expected.lines) return assert.equal(reading, null);
    assert.deepEqual(reading?.lines, expected.lines);
    assert.equal(reading?.valid, expected.valid);
  });
}
