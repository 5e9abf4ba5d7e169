import net from 'node:net';

export type ProxyMode = 'up' | 'down' | 'stall';

/**
 * A TCP proxy in front of a real server, for outage tests. `up` forwards; `down` drops every
 * connection and refuses new ones (the server is gone); `stall` accepts connections and never
 * answers (a network that swallows packets).
 */
export interface TcpProxy {
  port: number;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'stall') return;
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  return {
    port,
    async set(next) {
      dropAll();
      mode = next;
      if (next === 'down') await stopListening();
      else if (!server.listening) await listen(port);
    },
    async close() {
      dropAll();
      await stopListening();
    },
  };
}
