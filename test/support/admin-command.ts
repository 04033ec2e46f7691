import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** Runs the admin command as an operator would, with only PATH and this DATA_DIR; a failure answers its exit code. */
export async function runAdmin(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error instanceof Error && 'stdout' in error && 'stderr' in error && 'code' in error) {
      return { code: Number(error.code), stdout: String(error.stdout), stderr: String(error.stderr) };
    }
    throw error;
  }
}
