/**
 * Check scanners and the scanner models/manufacturers they reference.
 * GET /v2/scannermodels (+/{id}) lists the seeded models under `scannermodels`.
 * Scanner ids are 24 hex characters (the field table says length 24).
 * DELETE answers 204, also for a newly created (active) scanner; it answers 409 only
 * when a record depends on the scanner — any table of any module with a `scanner_id`
 * column that names it (found from the schema, so a later module's table counts too).
 */
import { ApiError } from '../framework/errors';
import type { ResourceDef, Row } from '../framework/resource';
import { bool, createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { ANY_USER, DEVICE_SETUP } from '../framework/permissions';

export const scannerManufacturerResource: ResourceDef = {
  name: 'scannermanufacturer',
  plural: 'scannermanufacturers',
  table: 'scanner_manufacturers',
  idKind: 'integer',
  scope: { kind: 'none' },
  defaultSort: 'id',
  methods: [],
  allow: {},
  fields: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } },
};

export const scannerModelResource: ResourceDef = {
  name: 'scannermodel',
  plural: 'scannermodels',
  table: 'scanner_models',
  idKind: 'integer',
  scope: { kind: 'none' },
  defaultSort: 'id',
  methods: ['list', 'view'],
  allow: { list: ANY_USER, view: ANY_USER },
  fields: {
    id: { type: 'integer', readOnly: true },
    title: { type: 'string', readOnly: true },
    scanner_manufacturer_id: { type: 'integer', readOnly: true },
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: { scanner_manufacturer: refExpand('scannermanufacturer', 'scanner_manufacturer_id') },
};

export const scannerResource: ResourceDef = {
  name: 'scanner',
  plural: 'scanners',
  table: 'scanners',
  idKind: 'hex24',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // Everyone reads the devices; setting one up is the installer's or a manager's.
  allow: { list: ANY_USER, view: ANY_USER, create: DEVICE_SETUP, update: DEVICE_SETUP, delete: DEVICE_SETUP },
  fields: {
    id: idField,
    title: str(1, 24, { required: true }),
    serial_number: str(1, 24, { required: true, keepsDigits: 'identifier' }),
    scanner_model_id: { type: 'integer', required: true, minValue: 1, ref: 'scannermodel' },
    location_id: locationRef,
    active: bool(1),
    // Ringup: the serial device the scanner is plugged into (the app's core drives it).
    serial_path: str(0, 255),
    created_ts: tsField,
    modified_ts: tsField,
    created_user_id: systemUser,
    modified_user_id: systemUser,
  },
  expands: {
    scanner_model: refExpand('scannermodel', 'scanner_model_id'),
    location: refExpand('location', 'location_id'),
    created_user: createdUserExpand,
    scanner_manufacturer: (ctx, row, auth) => {
      const model = ctx.getById(scannerModelResource, row.scanner_model_id) as Row | undefined;
      return model ? refExpand('scannermanufacturer', 'scanner_manufacturer_id')(ctx, model, auth) : null;
    },
  },
  beforeDelete({ ctx, existing }) {
    const tables = ctx
      .stmt("SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'scanner_id'")
      .all() as { name: string }[];
    for (const { name } of tables) {
      if (ctx.stmt(`SELECT 1 FROM "${name.replace(/"/g, '""')}" WHERE scanner_id = ? LIMIT 1`).get(existing.id)) {
        throw new ApiError(409, { general: [MERCHANT_MSG.SCANNER_IN_USE] });
      }
    }
  },
};
