// The agent's credential on disk (mode 0600: it is a password). Written once at registration;
// the server keeps only its hash, so losing this file means enrolling again.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

const ZSavedCredential = z.object({
  /** The server it belongs to: a credential for another server is not sent anywhere else. */
  url: z.string(),
  agentId: z.string(),
  name: z.string(),
  project: z.string(),
  credential: z.string().min(1),
  heartbeatIntervalSeconds: z.number().positive(),
  claimWaitSeconds: z.number().min(0),
});
export type SavedCredential = z.output<typeof ZSavedCredential>;

export async function loadCredential(file: string): Promise<SavedCredential | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const parsed = ZSavedCredential.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a credential file this agent wrote: ${parsed.error.message}`);
  return parsed.data;
}

export async function saveCredential(file: string, credential: SavedCredential): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFile applies only to a new file, and the umask may have narrowed it.
  await fs.chmod(temporary, 0o600);
  await fs.rename(temporary, file);
}
