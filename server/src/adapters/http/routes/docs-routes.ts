import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import helmet from 'helmet';
import { contractPath } from '@payment-qr/contract';
import { loadContract } from '../validation.js';

const docsDir = fileURLToPath(new URL('../docs/', import.meta.url));
const redocBundle = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
/** Redoc's one third-party request (its sidebar logo, from cdn.redoc.ly), pointed at an empty inline image instead. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

/** Redoc styles itself with injected <style> and searches in a blob: worker; its script and the spec come from here. */
const docsHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      workerSrc: ['blob:'],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
});

/** Reads a file once, on first use: most servers never serve the reference, and Redoc's bundle alone is 2 MiB. */
function once<T>(read: () => T): () => T {
  let value: { read: T } | null = null;
  return () => (value ??= { read: read() }).read;
}

/** GET /docs (the reference, rendered by Redoc served from here), /openapi.yaml and /openapi.json: public. */
export function docsRoutes(): Router {
  const yamlText = once(() => readFileSync(contractPath, 'utf8'));
  const jsonText = once(() => JSON.stringify(loadContract()));
  const page = once(() => readFileSync(new URL('../docs/docs.html', import.meta.url), 'utf8'));
  const redoc = once(() => readFileSync(redocBundle, 'utf8').replaceAll(REDOC_LOGO, EMPTY_IMAGE));
  const router = Router();
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yamlText());
  });
  router.get('/openapi.json', (_req, res) => {
    res.type('json').send(jsonText());
  });
  router.use('/docs', docsHeaders);
  router.get('/docs', (_req, res) => {
    res.type('html').send(page());
  });
  router.get('/docs/assets/redoc.standalone.js', (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=86400').send(redoc());
  });
  router.use('/docs/assets', express.static(docsDir, { index: false, maxAge: '1h' }));
  return router;
}
