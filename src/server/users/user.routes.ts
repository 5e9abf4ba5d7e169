import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../shared/api/common.js';
import { ProfileResponse, UpdateProfileForm, UpdateProfileResponse, UsernameParams } from '../../shared/api/users.js';
import { ICON_MAX_BYTES } from '../../shared/limits.js';
import { requireUser } from '../auth/current-user.js';
import { readForm } from '../http/multipart-form.js';
import { multipartValidator } from '../http/strict-input.js';
import type { UserService } from './user.service.js';

export const userRoutes =
  (users: UserService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/users/:username',
      {
        schema: {
          tags: ['people'],
          summary: 'A profile with follower and following counts',
          params: UsernameParams,
          response: { 200: ProfileResponse, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => ({ user: await users.profile(request.params.username, request.user) }),
    );

    app.patch(
      '/api/me',
      {
        schema: {
          tags: ['people'],
          summary: 'Update your own icon and/or bio (multipart: icon, bio), saved together',
          consumes: ['multipart/form-data'],
          body: UpdateProfileForm.optional(),
          response: { 200: UpdateProfileResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
        },
        // The multipart parser reads the body itself; params and query are validated as usual.
        validatorCompiler: multipartValidator,
      },
      async (request) => {
        const user = requireUser(request, 'USER_DATA_NOT_FOUND');
        const { fields, file } = await readForm(request, {
          fileField: 'icon',
          textFields: ['bio'],
          maxFileBytes: ICON_MAX_BYTES,
          tooLarge: 'ICON_TOO_LARGE',
        });
        return { user: await users.update(user, { bio: fields.bio, icon: file }) };
      },
    );
  };
