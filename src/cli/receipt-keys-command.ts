// `preflight receipt-keys`: the public key document, after retiring the signing key when --rotate asks.
import { loadConfig } from '../config.js';
import { receiptKeyDocument, rotateReceiptKey } from '../receipt-keys.js';
import { EXIT } from './exit.js';

export function receiptKeysCommand(flags: { rotate?: boolean }): number {
  const config = loadConfig();
  const options = { home: config.home, env: config.env };
  if (flags.rotate) {
    const rotation = rotateReceiptKey(options);
    process.stderr.write(
      `preflight: retired receipt key ${rotation.retired} (its public key stays published)${rotation.active ? `; receipts are now signed with ${rotation.active}` : ''}.\n` +
        (rotation.next ? `preflight: ${rotation.next}\n` : ''),
    );
  }
  process.stdout.write(`${JSON.stringify(receiptKeyDocument(options), null, 2)}\n`);
  return EXIT.ok;
}
