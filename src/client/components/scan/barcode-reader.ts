import type { BarcodeDetector as Detector, BarcodeFormat } from 'barcode-detector/pure';

/**
 * Reading barcodes from the camera's frames: the browser's own `BarcodeDetector` where it has one
 * that reads every format asked (Chrome on Android, Safari on macOS and iOS 17+), else the same API
 * from the `barcode-detector` package (ZXing compiled to WebAssembly), whose wasm file is one of
 * the app's own assets — served by the app and kept by the service worker, so it reads offline
 * and never fetches from elsewhere. Loaded only when a scanner opens.
 */

/** What a shop's goods and shelves carry: EAN-13 and UPC-A on products, Code 128 on labels, QR on anything. */
export const SCANNED_FORMATS: BarcodeFormat[] = ['ean_13', 'upc_a', 'code_128', 'qr_code'];

export type BarcodeReader = Pick<Detector, 'detect'>;

/** The browser's own detector, when it reads every format asked. */
async function nativeReader(formats: BarcodeFormat[]): Promise<BarcodeReader | undefined> {
  const native = (globalThis as { BarcodeDetector?: typeof Detector }).BarcodeDetector;
  if (!native) return undefined;
  try {
    const supported = await native.getSupportedFormats();
    return formats.every((format) => supported.includes(format)) ? new native({ formats }) : undefined;
  } catch {
    return undefined;
  }
}

export async function barcodeReader(formats: BarcodeFormat[] = SCANNED_FORMATS): Promise<BarcodeReader> {
  const native = await nativeReader(formats);
  if (native) return native;
  const [{ BarcodeDetector, setZXingModuleOverrides }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/pure'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  setZXingModuleOverrides({ locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) });
  return new BarcodeDetector({ formats });
}

/** A short beep and a buzz on a read, for who is looking at the shelf rather than the screen. */
export function signalRead(): void {
  navigator.vibrate?.(60);
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 1760;
    volume.gain.value = 0.1;
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.08);
    tone.onended = () => void audio.close();
  } catch {
    // No sound on this device: the vibration and the screen say it.
  }
}
