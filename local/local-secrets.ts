import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Secrets the local runtime needs and AWS would keep in Secrets Manager: generated once per data
 * folder and kept there, so webhook receivers, encrypted callback credentials and the development
 * API key stay valid across restarts.
 */
export interface LocalSecrets {
  webhookApiKey: string;
  webhookSigningSecret: string;
  credentialsKey: string;
  /** Only present once a development key was needed (HALE_API_KEYS unset). */
  developmentApiKey?: string;
}

const FILE_NAME = 'local-secrets.json';

function randomBase64(bytes: number): string {
  return randomBytes(bytes).toString('base64');
}

function generated(): LocalSecrets {
  return {
    webhookApiKey: `hale_webhook_${randomBytes(24).toString('base64url')}`,
    webhookSigningSecret: `whsec_${randomBase64(32)}`,
    credentialsKey: randomBase64(32),
  };
}

export function generateApiKey(): string {
  return `hale_dev_${randomBytes(24).toString('base64url')}`;
}

async function readSecrets(file: string): Promise<Partial<LocalSecrets> | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Partial<LocalSecrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read ${file}; delete it to generate new local secrets`, { cause: error });
  }
}

/** Write-then-rename, so an interrupted start never leaves a half-written secrets file. */
async function writeSecrets(file: string, secrets: LocalSecrets): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/**
 * Loads the data folder's secrets (the folder must exist), creating whatever is missing. `needsDevelopmentKey` asks for a
 * development API key too; `developmentKeyCreated` says whether it was made just now.
 */
export async function loadLocalSecrets(
  dataDir: string,
  needsDevelopmentKey: boolean,
): Promise<{ secrets: LocalSecrets; developmentKeyCreated: boolean }> {
  const file = path.join(dataDir, FILE_NAME);
  const stored = await readSecrets(file);
  const secrets: LocalSecrets = { ...generated(), ...stored };
  const developmentKeyCreated = needsDevelopmentKey && !secrets.developmentApiKey;
  if (developmentKeyCreated) secrets.developmentApiKey = generateApiKey();
  const complete = stored?.webhookApiKey && stored.webhookSigningSecret && stored.credentialsKey;
  if (!complete || developmentKeyCreated) await writeSecrets(file, secrets);
  return { secrets, developmentKeyCreated };
}
