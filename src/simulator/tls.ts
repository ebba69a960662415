/** A fresh self-signed certificate for serving the simulator over HTTPS on the loopback interface. */
import { generate } from 'selfsigned';

export interface ServerCertificate {
  readonly keyPem: string;
  /** Also the CA a client trusts: the certificate signs itself. */
  readonly certPem: string;
}

export async function selfSignedCertificate(): Promise<ServerCertificate> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 24 * 3600 * 1000),
    notAfterDate: new Date(now + 30 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { keyPem: pems.private, certPem: pems.cert };
}
