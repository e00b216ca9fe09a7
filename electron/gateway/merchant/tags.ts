/** Tags: title per location. DELETE is /v2/tags/{id} (the interface leaves the id's place open). */
import type { ResourceDef } from '../framework/resource';
import { createdUserExpand, idField, locationRef, str, systemUser, tsField } from './field-kit';
import { ANY_USER, MANAGERS } from '../framework/permissions';

export const tagResource: ResourceDef = {
  name: 'tag',
  plural: 'tags',
  table: 'tags',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: 'title',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  allow: { list: ANY_USER, view: ANY_USER, create: MANAGERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: idField,
    title: str(1, 64, { required: true }),
    location_id: locationRef,
    created_user_id: systemUser,
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: { created_user: createdUserExpand },
};
