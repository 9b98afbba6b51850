import type { RuntimeConfig } from '../../config';

/** Where e-mailed links point: PUBLIC_ORIGIN, or the default local address. */
export const DEFAULT_PUBLIC_ORIGIN = 'http://localhost:8000';

export function publicOrigin(config: Pick<RuntimeConfig, 'publicOrigin'>): string {
  return config.publicOrigin ?? DEFAULT_PUBLIC_ORIGIN;
}

export function passwordLink(
  config: Pick<RuntimeConfig, 'publicOrigin'>,
  mode: 'passwordreset' | 'welcome',
  userId: string,
  token: string,
): string {
  return `${publicOrigin(config)}/${mode}/${encodeURIComponent(userId)}/${encodeURIComponent(token)}`;
}
