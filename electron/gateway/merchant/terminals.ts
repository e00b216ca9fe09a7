/**
 * Terminals (EMV devices) with their reference records: terminal manufacturers and
 * terminal applications (no endpoints of their own; seeded reference data, expandable).
 * Port defaults to 10009 (PAX POSLink); terminal_timeouts are filled from the defaults
 * and merged key by key on update. DELETE answers 204 (the interface leaves it open).
 */
import type { StoredFieldDef, ResourceDef, Row } from '../framework/resource';
import { bool, createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { TIMEOUTS_SCHEMA, TIP_PERCENTS_SCHEMA, checkTimeouts, checkTipPercents, defaultTimeouts } from './terminal-settings';
import { ANY_USER, DEVICE_SETUP } from '../framework/permissions';
import { FINGERPRINT_MSG, FINGERPRINT_PATTERN } from '../../../shared/payments/terminal-fingerprint';

const line = str(0, 64);
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export const terminalManufacturerResource: ResourceDef = {
  name: 'terminal_manufacturer',
  plural: 'terminal_manufacturers',
  path: '/v2/terminalmanufacturers',
  table: 'terminal_manufacturers',
  scope: { kind: 'none' },
  defaultSort: 'title',
  methods: [],
  allow: {},
  fields: { id: idField, title: { type: 'string' } },
};

export const terminalApplicationResource: ResourceDef = {
  name: 'terminal_application',
  plural: 'terminal_applications',
  path: '/v2/terminalapplications',
  table: 'terminal_applications',
  scope: { kind: 'none' },
  defaultSort: 'title',
  methods: [],
  allow: {},
  fields: { id: idField, title: { type: 'string' }, terminal_manufacturer_id: { type: 'string' } },
};

/**
 * The communication_type of the sandbox's built-in mock terminal (router/mock-terminal.ts): a
 * terminal with it and no address is played inside a sandbox engine; the seed's Demo Terminal is one.
 */
export const MOCK_COMMUNICATION_TYPE = 'mock';

const timeouts: StoredFieldDef = { type: 'json', json: checkTimeouts, jsonSchema: TIMEOUTS_SCHEMA, example: { card_entry_timeout: 60 } };
const tips: StoredFieldDef = { type: 'json', json: checkTipPercents, jsonSchema: TIP_PERCENTS_SCHEMA, example: { percent_1: 15, percent_2: 18, percent_3: 20 } };

export const terminalResource: ResourceDef = {
  name: 'terminal',
  plural: 'terminals',
  table: 'terminals',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // Everyone reads the devices; setting one up (its address above all) is the installer's or a manager's.
  allow: { list: ANY_USER, view: ANY_USER, create: DEVICE_SETUP, update: DEVICE_SETUP, delete: DEVICE_SETUP },
  fields: {
    id: idField,
    active: bool(1),
    location_id: locationRef,
    serial_number: str(1, 36, { required: true, keepsDigits: 'identifier' }),
    terminal_number: str(0, 36, { keepsDigits: 'identifier' }),
    title: str(0, 64),
    mac_address: str(0, 16, { keepsDigits: 'identifier' }),
    local_ip_address: str(0, 15, { pattern: IPV4, example: '127.0.0.1' }),
    port: { type: 'integer', minValue: 1, maxValue: 65535, default: 10009 },
    last_registration_ts: tsField,
    created_ts: tsField,
    modified_ts: tsField,
    terminal_timeouts: timeouts,
    tip_percents: tips,
    debit: bool(0),
    emv: bool(1),
    header_line_1: line,
    header_line_2: line,
    header_line_3: line,
    header_line_4: line,
    header_line_5: line,
    trailer_line_1: line,
    trailer_line_2: line,
    trailer_line_3: line,
    trailer_line_4: line,
    trailer_line_5: line,
    // tcp, serial (Ringup: with serial_path), or mock (the sandbox's built-in mock terminal, router/mock-terminal.ts).
    communication_type: str(0, 32, { default: 'tcp' }),
    // Ringup: the serial device of a terminal whose communication_type is "serial".
    serial_path: str(0, 255, { keepsDigits: 'identifier' }),
    // Ringup (issue 20, point 1): the link to a network terminal over TLS, pinned to its certificate.
    tls: bool(0, { description: 'Ringup: 1 reaches the terminal over TLS only, trusting the one certificate whose SHA-256 fingerprint is tls_fingerprint (never plain TCP).' }),
    tls_fingerprint: str(0, 95, {
      pattern: FINGERPRINT_PATTERN,
      trim: true,
      keepsDigits: 'identifier',
      messages: { pattern: FINGERPRINT_MSG.malformed },
      label: 'Certificate fingerprint',
      example: '3F:A2:07:5C:1B:88:D4:E0:6A:92:17:C3:5E:0B:F4:21:7D:66:A9:30:C8:4F:12:B5:E7:03:9A:6D:2C:F1:58:9C',
      description: "Ringup: the SHA-256 fingerprint of the terminal's own certificate, as the terminal shows it (32 hex pairs joined by colons); required when tls is 1.",
    }),
    reported_serial_number: str(0, 36, {
      readOnly: true,
      keepsDigits: 'identifier',
      description: 'Ringup: the serial number the terminal reported of itself when last initialized (POST /v2/terminals/{id}/initialize); null until then.',
    }),
    is_provisioned: bool(0),
    default_checkin: str(0, 10),
    default_checkout: str(0, 10),
    default_room_rate: str(0, 16),
    default_room_number: str(0, 16),
    terminal_application_id: { type: 'string', min: 1, max: 36, required: true, ref: 'terminal_application' },
    terminal_manufacturer_id: { type: 'string', min: 1, max: 36, required: true, ref: 'terminal_manufacturer' },
    terminal_cvm_id: { type: 'integer', minValue: 0, maxValue: 99 },
    tip_enable: bool(0),
    cashback_enable: bool(0),
    print_enable: bool(0),
    sig_capture_enable: bool(1),
    created_user_id: systemUser,
    modified_user_id: systemUser,
  },
  expands: {
    terminal_application: refExpand('terminal_application', 'terminal_application_id'),
    terminal_manufacturer: refExpand('terminal_manufacturer', 'terminal_manufacturer_id'),
    location: refExpand('location', 'location_id'),
    created_user: createdUserExpand,
  },
  validate({ ctx, errs, input, existing }) {
    const v = input.values;
    const appId = v.terminal_application_id ?? existing?.terminal_application_id;
    const mfrId = v.terminal_manufacturer_id ?? existing?.terminal_manufacturer_id;
    if (('terminal_application_id' in v || 'terminal_manufacturer_id' in v) && appId && mfrId) {
      const app = ctx.getById(terminalApplicationResource, appId);
      if (app && app.terminal_manufacturer_id !== mfrId) errs.add('terminal_application_id', MERCHANT_MSG.APPLICATION_NOT_OF_MANUFACTURER);
    }
    // TLS needs the pin (a TLS link trusting any certificate would be no better than plain TCP),
    // and is for a network terminal only.
    const pick = (k: string) => (k in v ? v[k] : existing?.[k]);
    if (pick('tls') === 1 || pick('tls') === true) {
      const fp = pick('tls_fingerprint');
      if ((typeof fp !== 'string' || fp === '') && !errs.has('tls_fingerprint')) errs.add('tls_fingerprint', FINGERPRINT_MSG.missing);
      if (pick('communication_type') === 'serial') errs.add('tls', FINGERPRINT_MSG.serial);
    }
  },
  beforeInsert({ input }) {
    const v = input.values;
    if (typeof v.tls_fingerprint === 'string') v.tls_fingerprint = v.tls_fingerprint.toUpperCase();
    v.terminal_timeouts = { ...defaultTimeouts(), ...((v.terminal_timeouts as Row | null | undefined) ?? {}) };
  },
  beforeUpdate({ input, existing }) {
    const v = input.values;
    if (typeof v.tls_fingerprint === 'string') v.tls_fingerprint = v.tls_fingerprint.toUpperCase();
    if ('terminal_timeouts' in v) {
      const stored = typeof existing.terminal_timeouts === 'string' ? (JSON.parse(existing.terminal_timeouts) as Row) : defaultTimeouts();
      v.terminal_timeouts = v.terminal_timeouts === null ? defaultTimeouts() : { ...stored, ...(v.terminal_timeouts as Row) };
    }
  },
};
