import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { takeDenied } from '../../scripts/lib/loopback-only.js';

// Checked first in each case: without the guard the case would really connect.
const guardInstalled = (): void => expect(Socket.prototype.connect.name).toBe('connectToLoopbackOnly');

describe('tests talk to loopback only', () => {
  it('refuses a connection to another address before it leaves, naming it', async () => {
    guardInstalled();
    const socket = connect({ host: '192.0.2.1', port: 9 }); // TEST-NET-1: nobody's address
    const [error] = (await once(socket, 'error')) as [Error];
    expect(error.message).toMatch(/outbound connection to 192\.0\.2\.1:9 denied/);
    expect(takeDenied()).toEqual(['192.0.2.1:9']);
  });

  it('lets fetch reach nothing but loopback', async () => {
    guardInstalled();
    await expect(fetch('http://198.51.100.7:8080/')).rejects.toThrow();
    expect(takeDenied()).toEqual(['198.51.100.7:8080']);
  });
});
