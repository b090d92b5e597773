import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

const fontDir = dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-thai/package.json'));

/** A page's own assets (its one script, its styles) under /assets, and the Thai font under /assets/fonts, from this origin. */
export function pageAssets(assetsDir: string): Router {
  const router = Router();
  router.use('/assets/fonts', express.static(fontDir, { index: false, maxAge: '7d' }));
  router.use('/assets', express.static(assetsDir, { index: false, maxAge: '1h' }));
  return router;
}
