import { once } from 'node:events';
import { createServer, connect, Socket, type AddressInfo, type LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { takeDenied } from '../../scripts/lib/loopback-only.js';

// Checked first in each case: without the guard the case would really connect.
const guardInstalled = (): void => expect(Socket.prototype.connect.name).toBe('connectToLoopbackOnly');

/** A lookup that answers `address` for any name, as a pinned sender's does. */
const answering =
  (address: string): LookupFunction =>
  (_hostname, options, callback) =>
    options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);

describe('tests talk to loopback only', () => {
  it('refuses a connection to another address before it leaves, naming it', async () => {
    guardInstalled();
    const socket = connect({ host: '192.0.2.1', port: 9 }); // TEST-NET-1: nobody's address
    const [error] = (await once(socket, 'error')) as [Error];
    expect(error.message).toMatch(/outbound connection to 192\.0\.2\.1:9 denied/);
    expect(takeDenied()).toEqual(['192.0.2.1:9']);
  });

  it('judges a host name by the addresses its lookup gives', async () => {
    guardInstalled();
    const outside = connect({ host: 'shop.example', port: 9, lookup: answering('198.51.100.7') });
    const [error] = (await once(outside, 'error')) as [Error];
    expect(error.message).toMatch(/outbound connection to shop\.example \(198\.51\.100\.7\):9 denied/);
    expect(takeDenied()).toEqual(['shop.example (198.51.100.7):9']);

    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pinned = connect({ host: 'rebinding-host.invalid', port: (server.address() as AddressInfo).port, lookup: answering('127.0.0.1') });
    await once(pinned, 'connect');
    pinned.destroy();
    server.close();
    expect(takeDenied()).toEqual([]);
  });

  it('lets fetch reach nothing but loopback', async () => {
    guardInstalled();
    await expect(fetch('http://198.51.100.7:8080/')).rejects.toThrow();
    expect(takeDenied()).toEqual(['198.51.100.7:8080']);
  });
});
