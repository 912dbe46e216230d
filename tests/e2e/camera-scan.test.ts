import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ean13, writeBarcodeVideo } from '../support/barcode-video';
import { CHROMIUM, chromiumAvailable, PHONE, signedIn, startE2E, type E2E } from './browser';

/**
 * Counting with the phone's camera: Chromium's fake camera plays a video of an EAN-13 the test
 * draws; the count's scanner reads it (Linux Chromium has no BarcodeDetector of its own, so this
 * is the WebAssembly reader served by the app), adds the item once, and releases the camera when
 * it closes.
 */
describe.skipIf(!chromiumAvailable)('camera scanning in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;
  let camera: Browser;
  const folder = mkdtempSync(join(tmpdir(), 'bodega-camera-'));
  const barcode = ean13('480999000123');

  beforeAll(async () => {
    e2e = await startE2E();
    const video = join(folder, 'barcode.y4m');
    writeBarcodeVideo(video, barcode);
    camera = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
  });
  afterAll(async () => {
    await camera?.close();
    await e2e?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads an EAN-13 into a stock count, once, and lets the camera go when closed', async () => {
    const { context, page } = await signedIn({ ...e2e, browser: camera }, 'warehouse@example.com', PHONE);
    await context.grantPermissions(['camera']);
    // Every stream the page opens, to see that the scanner stops it.
    await page.addInitScript(() => {
      const streams: MediaStream[] = [];
      (window as unknown as { openedStreams: MediaStream[] }).openedStreams = streams;
      const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = async (constraints) => {
        const stream = await open(constraints);
        streams.push(stream);
        return stream;
      };
    });
    const headers = {
      'Business-ID': String(await page.evaluate(() => localStorage.getItem('business_id'))),
      'X-Requested-With': 'XMLHttpRequest',
    };
    const unit = (await (await page.request.get('/api/unit-of-measurements?limit=1', { headers })).json()).data[0];
    const made = await page.request.post('/api/items', {
      headers,
      data: { sku: 'CAM-COFFEE', name: 'Kapeng Barako 250g', barcode, unit_of_measurement_id: unit.id },
    });
    expect(made.status()).toBe(201);
    const item = (await made.json()).data;
    const warehouse = (await (await page.request.get('/api/warehouses?limit=1&order_by=asc', { headers })).json()).data[0];
    const started = await page.request.post('/api/stock-counts', {
      headers,
      data: { warehouse_id: warehouse.id, date: '2026-11-26', scope: 'picked' },
    });
    expect(started.status()).toBe(201);
    const countId = (await started.json()).data.id;

    await page.goto(`/stock-counts/${countId}`);
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    const scanner = page.getByRole('dialog', { name: 'Scan with the camera' });
    await scanner.getByText(`Read ${barcode}.`).waitFor({ timeout: 30_000 });
    await page.getByText(`Counted +1 ${item.name}.`).waitFor();
    await scanner.getByRole('button', { name: 'Done' }).click();
    await scanner.waitFor({ state: 'detached' });

    // The label stayed in view the whole time: one entry, not one per frame.
    const entries = await e2e.app.db
      .selectFrom('stock_count_entries')
      .select(['item_id', 'quantity'])
      .where('stock_count_id', '=', countId)
      .execute();
    expect(entries).toEqual([{ item_id: item.id, quantity: 1000 }]);
    const tracks = await page.evaluate(() =>
      (window as unknown as { openedStreams: MediaStream[] }).openedStreams.flatMap((stream) =>
        stream.getTracks().map((track) => track.readyState),
      ),
    );
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.every((state) => state === 'ended')).toBe(true);
    await context.close();
  });
});
