export const deployments: string[] = [];

export function currentVersion(env: string): string {
  return env === 'production' ? '1.4.2' : '1.5.0-rc.1';
}

export function deploy(env: string, version: string): void {
  deployments.push(`${env}@${version}`);
}
