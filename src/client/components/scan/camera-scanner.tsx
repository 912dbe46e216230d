import { Camera } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../ui/dialog';
import { barcodeReader, signalRead, type BarcodeReader } from './barcode-reader';

/** How often a frame is read: fast enough to feel instant, slow enough for a cheap phone. */
const READ_EVERY_MS = 150;
/** The same code seen again within this is the same label still in view, not another item. */
const SAME_READ_MS = 1500;
/** Frames in a row the reader failed on before the scanner says it cannot read. */
const FAILURES_BEFORE_GIVING_UP = 5;

/** Why the camera could not start, in words a counter can act on. */
function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'The camera was not allowed. Allow it for this site in the browser’s settings, or scan with a scanner or type the barcode.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No camera was found on this device.';
  if (name === 'NotReadableError') return 'The camera is in use by another app. Close it and try again.';
  return 'The camera could not start. Scan with a scanner or type the barcode instead.';
}

/**
 * A camera button, and the scanner it opens: the back camera's picture, read for EAN-13, UPC-A,
 * Code 128 and QR codes; each read beeps, buzzes and goes to `onRead`. `continuous` keeps it open
 * for the next item (counting a shelf); otherwise the first read closes it. The camera is released
 * the moment the scanner closes. A camera needs a secure address (https or localhost): on plain
 * http the button says so.
 */
export function CameraScanButton({
  onRead,
  continuous = false,
  label = 'Scan with the camera',
}: {
  onRead: (code: string) => void;
  continuous?: boolean;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="outline" size="icon" className="size-11 shrink-0" aria-label={label} onClick={() => setOpen(true)}>
        <Camera aria-hidden />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>{label}</DialogTitle>
            <DialogDescription>Hold the barcode or QR code in the frame.</DialogDescription>
          </DialogHeader>
          {open && (
            <CameraView
              onRead={(code) => {
                onRead(code);
                if (!continuous) setOpen(false);
              }}
            />
          )}
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            Done
          </Button>
        </DialogContent>
      </Dialog>
    </>
  );
}

function CameraView({ onRead }: { onRead: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [last, setLast] = useState<string | null>(null);
  // The latest callback, without restarting the camera when the screen re-renders.
  const reads = useRef(onRead);
  useEffect(() => {
    reads.current = onRead;
  }, [onRead]);

  useEffect(() => {
    const element = video.current;
    let stream: MediaStream | undefined;
    let reader: BarcodeReader | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let seen = { code: '', at: 0 };
    let failures = 0;
    const read = async () => {
      if (stopped || !reader || !element) return;
      try {
        if (element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
          const [found] = await reader.detect(element);
          const now = Date.now();
          if (found && !(found.rawValue === seen.code && now - seen.at < SAME_READ_MS)) {
            seen = { code: found.rawValue, at: now };
            signalRead();
            setLast(found.rawValue);
            reads.current(found.rawValue);
          } else if (found) seen.at = now;
          failures = 0;
        }
      } catch {
        // A frame that could not be read: the next one is — unless none can be, then the reader is broken.
        failures += 1;
        if (failures >= FAILURES_BEFORE_GIVING_UP) {
          setProblem('The barcode reader could not start on this device. Scan with a scanner or type the barcode instead.');
          return;
        }
      }
      if (!stopped) timer = setTimeout(() => void read(), READ_EVERY_MS);
    };
    void (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem('The camera works only on a secure address (https). Scan with a scanner or type the barcode.');
        return;
      }
      try {
        const [media, loaded] = await Promise.all([
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false }),
          barcodeReader(),
        ]);
        if (stopped) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        stream = media;
        reader = loaded;
        if (element) {
          element.srcObject = media;
          await element.play().catch(() => undefined);
        }
        void read();
      } catch (error) {
        if (!stopped) setProblem(cameraProblem(error));
      }
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (element) element.srcObject = null;
    };
  }, []);

  if (problem)
    return (
      <p role="alert" className="text-sm text-destructive">
        {problem}
      </p>
    );
  return (
    <div className="space-y-2">
      <video ref={video} className="aspect-video w-full rounded-md bg-black object-cover" muted playsInline aria-label="Camera" />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {last ? `Read ${last}.` : 'Looking for a code…'}
      </p>
    </div>
  );
}
