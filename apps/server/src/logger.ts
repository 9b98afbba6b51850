import { pino, type LoggerOptions } from 'pino';
import type { LogLevel } from './config';

/** Never a password, token, cookie or key in a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.new_password_confirm',
  '*.token',
  '*.private_key',
];

export function loggerOptions(
  level: LogLevel,
  pretty = process.stdout.isTTY === true,
): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

export function createLogger(level: LogLevel) {
  return pino(loggerOptions(level));
}
