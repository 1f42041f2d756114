// Draws the app icons (pwa/public/icons/*.png) from the tooth logo of the navigation bar, with
// Chromium. Run once when the logo changes and commit the PNGs: node pwa/scripts/make-icons.ts
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const out = fileURLToPath(new URL('../public/icons/', import.meta.url));

/** The same path as the logo in src/components/navbar.tsx and public/favicon.svg (a 64 × 64 box). */
const TOOTH =
  'M21 12c-6 0-10 5-10 12 0 6 2 9 4 13 2 5 2 15 6 15s4-10 7-10h8c3 0 3 10 7 10s4-10 6-15c2-4 4-7 4-13 0-7-4-12-10-12-5 0-7 2-11 2s-6-2-11-2z';
const TEAL = '#0f766e'; // --color-primary, the manifest's theme colour

/**
 * `rounded`: a rounded tile on a transparent ground (purpose "any", like the favicon).
 * Otherwise a full-bleed square (maskable, Apple touch icon) whose tooth fills `toothShare` of the
 * side, so that it stays inside the maskable safe zone (the centred circle of 80 % diameter).
 */
function iconSvg(size: number, { rounded, toothShare }: { rounded: boolean; toothShare: number }) {
  const tile = rounded
    ? `<rect width="64" height="64" rx="14" fill="${TEAL}"/>`
    : `<rect width="64" height="64" fill="${TEAL}"/>`;
  // The tooth's own box is x 11–53, y 12–52: centre it and scale it to the share asked for.
  const scale = (64 * toothShare) / 42;
  const tooth = `<path fill="#fff" transform="translate(32 32) scale(${scale}) translate(-32 -32)" d="${TOOTH}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">${tile}${tooth}</svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, rounded: true, toothShare: 42 / 64 },
  { file: 'icon-512.png', size: 512, rounded: true, toothShare: 42 / 64 },
  // 0.5 of the side keeps the tooth's corners well inside the 80 % safe circle.
  { file: 'icon-maskable-512.png', size: 512, rounded: false, toothShare: 0.5 },
  { file: 'apple-touch-icon.png', size: 180, rounded: false, toothShare: 0.6 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  await mkdir(out, { recursive: true });
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, rounded, toothShare } of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${iconSvg(size, { rounded, toothShare })}`,
    );
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: size, height: size }, omitBackground: rounded });
    await writeFile(`${out}${file}`, png);
    console.log(`pwa/public/icons/${file} (${size} × ${size}, ${png.length} bytes)`);
  }
} finally {
  await browser.close();
}
