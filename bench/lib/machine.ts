/** The machine the figures come from: they mean little without it. */
import { chromiumPath } from '@onboarding-kit/testing/chromium';
import { execFile } from 'node:child_process';
import { cpus, totalmem, release, platform } from 'node:os';
import { promisify } from 'node:util';

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  node: string;
  chromium: string;
  date: string;
}

const CHROME_PATH = chromiumPath();

async function chromiumVersion(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(CHROME_PATH, ['--version'], { timeout: 15_000 });
    return stdout.trim().split('\n').pop() ?? 'unknown';
  } catch (error) {
    return `not available (${CHROME_PATH}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

export async function describeMachine(): Promise<Machine> {
  const list = cpus();
  return {
    cpu: list[0] ? `${list[0].model.trim()}${list[0].speed ? ` @ ${list[0].speed} MHz` : ''}` : 'unknown',
    cores: list.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${platform()} ${release()}`,
    node: process.version,
    chromium: await chromiumVersion(),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}
