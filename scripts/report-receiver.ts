import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * `npx tsx scripts/report-receiver.ts [port] [folder]`: a caller's report endpoint for trying the
 * report routes locally (README walk-through). One URL takes both requests Hale sends (spec §4.5):
 * the PDF by PUT, saved as `report-<job_id>.pdf` in the folder (default: the current one), and the
 * status callback by POST, printed. Every request is answered 200. Not for production: it trusts
 * whatever arrives.
 */

export interface ReportReceiver {
  url: string;
  close(): Promise<void>;
}

/** The job id Hale sends with the PDF (query `job_id`, header `X-Job-Id`), kept to a safe file name. */
function jobIdOf(requestUrl: string, header: string | string[] | undefined): string {
  const id = new URL(requestUrl, 'http://receiver').searchParams.get('job_id') ?? (typeof header === 'string' ? header : 'unknown');
  return id.replace(/[^A-Za-z0-9-]/g, '_');
}

export async function startReportReceiver(port: number, folder: string, print: (line: string) => void): Promise<ReportReceiver> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const auth = req.headers.authorization ? `  Authorization: ${req.headers.authorization}` : '';
      try {
        if (req.method === 'PUT') {
          const file = path.join(folder, `report-${jobIdOf(req.url ?? '/', req.headers['x-job-id'])}.pdf`);
          await writeFile(file, body);
          print(`PUT ${req.url} ${req.headers['content-type']} ${body.length} bytes → saved ${file}${auth}`);
        } else {
          print(`${req.method} ${req.url} ${req.headers['content-type']}${auth}\n  ${body.toString('utf8')}`);
        }
        res.writeHead(200).end();
      } catch (error) {
        print(`could not save the PDF: ${error instanceof Error ? error.message : String(error)}`);
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hale-report`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (require.main === module) {
  const port = Number(process.argv[2] ?? 4000);
  const folder = path.resolve(process.argv[3] ?? '.');
  startReportReceiver(port, folder, (line) => process.stdout.write(`${line}\n`)).then(
    (receiver) => process.stdout.write(`Receiving reports at ${receiver.url} (PDFs saved in ${folder}); Ctrl-C stops it.\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
