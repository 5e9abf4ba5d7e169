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
  /**
   * Holds back what the server sends on the connections whose client has sent `marker` (say
   * `LISTEN `: a change feed's listener), nothing lost, until hold(null) passes it all on: a
   * network that is slow for one connection while the others run.
   */
  hold(marker: string | null): void;
  close(): Promise<void>;
}

/** One proxied connection: what the server sent that is not passed on yet. */
interface Link {
  client: net.Socket;
  /** The start of what the client sent (enough to find a marker in). */
  sent: string;
  waiting: Buffer[];
}

const SENT_KEPT = 4_096;

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  let held: string | null = null;
  const links = new Set<Link>();
  const passOn = (link: Link) => {
    if (held !== null && link.sent.includes(held)) return;
    for (const chunk of link.waiting.splice(0)) link.client.write(chunk);
  };
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
    const link: Link = { client, sent: '', waiting: [] };
    links.add(link);
    client.on('data', (chunk: Buffer) => {
      if (link.sent.length < SENT_KEPT) link.sent += chunk.toString('latin1');
    });
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      link.waiting.push(chunk);
      passOn(link);
    });
    upstream.once('end', () => client.end());
    client.once('close', () => {
      links.delete(link);
      upstream.destroy();
    });
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
    hold(marker) {
      held = marker;
      for (const link of links) passOn(link);
    },
    async close() {
      dropAll();
      await stopListening();
    },
  };
}
