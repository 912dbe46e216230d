import type { Session } from './test-app';

const BOUNDARY = '----bodega-test-boundary';

/** A multipart/form-data body with one file part (named `file` unless said otherwise), and its content type. */
export function uploadOf(name: string, content: Buffer, field = 'file'): { body: Buffer; headers: Record<string, string> } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), content, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** Sends `content` as the file `name` to `url` (a record's `/files`) as `session`. */
export function sendFile(session: Session, url: string, name: string, content: Buffer) {
  const upload = uploadOf(name, content);
  return session.send('POST', url, upload.body, upload.headers);
}
