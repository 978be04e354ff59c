/**
 * `GET /v1/openapi.json`: the document, without authorisation (it holds no secret and names
 * nothing of a deployment), cacheable: it changes only with the companion's code.
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { requestHeader } from '../transport/index.js';
import { openApiEtag, openApiText } from './document.js';

const CACHE = 'public, max-age=3600';

export function openApiRoutes(): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.get('/openapi.json', (c) => {
    const etag = openApiEtag();
    c.header('ETag', etag);
    c.header('Cache-Control', CACHE);
    const asked = requestHeader(c, 'if-none-match');
    if (asked !== undefined && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304);
    c.header('Content-Type', 'application/json; charset=utf-8');
    return c.body(openApiText(), 200);
  });
  return app;
}
