// Loaded with `--import` (Portman's process) and imported by run-portman.mjs (newman's):
// every TCP connection or DNS lookup to anything but loopback is refused and recorded in
// $RINGUP_NET_GUARD_LOG, so the contract run proves Portman and newman work offline.
import dns from 'node:dns';
import fs from 'node:fs';
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);
const log = process.env.RINGUP_NET_GUARD_LOG;
const record = (what) => {
  if (log) fs.appendFileSync(log, `${process.pid} ${what}\n`);
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect() passes its normalised [options, callback] array as the first argument.
  let opts = Array.isArray(args[0]) ? args[0][0] : args[0];
  let host;
  if (opts && typeof opts === 'object') {
    if (opts.path) return connect.apply(this, args); // unix socket / pipe
    host = opts.host ?? 'localhost';
  } else if (typeof opts === 'number' || (typeof opts === 'string' && /^\d+$/.test(opts))) {
    host = typeof args[1] === 'string' ? args[1] : 'localhost';
  } else {
    return connect.apply(this, args); // a path string
  }
  if (!LOOPBACK.has(host)) {
    record(`connect ${host}`);
    throw new Error(`network guard: connection to ${host} refused (loopback only)`);
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  if (!LOOPBACK.has(host)) {
    record(`lookup ${host}`);
    const cb = rest[rest.length - 1];
    const err = Object.assign(new Error(`network guard: lookup of ${host} refused (loopback only)`), { code: 'ENOTFOUND' });
    if (typeof cb === 'function') process.nextTick(() => cb(err));
    return {};
  }
  return lookup.call(this, host, ...rest);
};
