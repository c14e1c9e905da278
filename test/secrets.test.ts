// Which lifted locals look like secrets (src/plan/secrets.ts): by name, by the shape of their
// value. Valid: flagged, with the reason; invalid: not flagged.
import { describe, expect, it } from 'vitest';
import { secretLook } from '../src/plan/secrets.ts';

describe('secretLook', () => {
  it.each([
    ['apiToken', '`x`', 'its name'],
    ['dbUrl', "''", 'its name'],
    ['DATABASE_URL', "''", 'its name'],
    ['dsn', "''", 'its name'],
    ['jwt', "''", 'its name'],
    ['userCreds', '{}', 'its name'],
    ['signingKey', "''", 'its name'],
    ['headers', '{}', 'its name'],
    ['client_secret', "''", 'its name'],
    ['sessionId', "''", 'its name'],
    ['target', "'postgres://admin:pw@db.internal/x'", 'a URL with a password'],
    ['signing', 'process.env.SIGNING', 'read from the environment'],
    ['opts', '{ headers: { Authorization: `Bearer ${t}` } }', 'a bearer token'],
    ['meta', "{ 'x-api-key': k }", 'an Authorization or Cookie header'],
    ['blob', "'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'", 'a JWT'],
    ['pem', "'-----BEGIN RSA PRIVATE KEY-----'", 'a private key'],
    ['who', 'ctx.http?.authInfo', "the caller's credentials (authInfo)"],
  ])('flags %s = %s (%s)', (name, value, why) => {
    expect(secretLook(name, value)).toBe(why);
  });

  it.each([
    ['maxTokens', '200'],
    ['tokenCount', 'n'],
    ['author', "'ada'"],
    ['credit', '10'],
    ['docs', '`https://docs.example.com/${t}`'],
    ['count', 'world.count(table)'],
    ['keyboard', "'qwerty'"],
    ['passage', "'text'"],
  ])('does not flag %s = %s', (name, value) => {
    expect(secretLook(name, value)).toBeUndefined();
  });
});
