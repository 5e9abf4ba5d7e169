import ipaddr from 'ipaddr.js';

/**
 * The unit per-address limits count. An IPv4 client has one address, but an IPv6 subscriber is
 * handed a whole /64 (18 quintillion addresses), so counting full IPv6 addresses would give one
 * student unlimited fresh "addresses". IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address.
 */
export function rateLimitAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
