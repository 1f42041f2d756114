import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FormSummary } from '../../../../../contract/forms.ts';
import { toQuestionnaire } from '../../../../../contract/questionnaire.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { describeRequest, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';

const items = [
  {
    linkId: 'penicillin',
    text: 'Are you allergic to penicillin?',
    type: 'boolean' as const,
    required: true,
    alert: 'Penicillin allergy',
  },
];
const history: FormSummary = {
  _id: 'medical-history',
  title: 'Medical history',
  version: 1,
  renewMonths: 12,
  treatments: 'all',
  items,
  questionnaire: toQuestionnaire('medical-history', 1, 'Medical history', items),
};

let writes: { call: string; body: unknown }[];

beforeEach(() => {
  writes = [];
  stubFetch(async (request) => {
    const call = describeRequest(request);
    if (call === 'GET /api/forms') return json([history]);
    if (call === 'GET /api/treatments') return json([{ _id: 'root-canal', name: 'Root Canal Treatment' }]);
    if (request.method === 'PUT' || request.method === 'POST') {
      writes.push({ call, body: await request.json() });
      return json({ acknowledged: true, _id: 'medical-history', version: 2 }, request.method === 'POST' ? 201 : 200);
    }
    if (call.startsWith('GET /api/users/admin/')) return json({ isAdmin: true });
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test', 'access:admin', { emailVerified: true });
});

describe('Forms (admin)', () => {
  it('edits a form into a new version: old questions keep their ids, a new one gets one from its words', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/form-templates' });
    await user.click(await screen.findByRole('button', { name: 'Edit Medical history' }));
    await user.click(screen.getByRole('button', { name: 'Add a question' }));
    await user.type(screen.getByLabelText('Question 2: what it asks'), 'Do you have diabetes?');
    await user.type(screen.getByLabelText('Question 2: alert on the schedule when yes'), 'Diabetes');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          call: 'PUT /api/forms/medical-history',
          body: {
            title: 'Medical history',
            renewMonths: 12,
            treatments: 'all',
            items: [
              {
                linkId: 'penicillin',
                text: 'Are you allergic to penicillin?',
                type: 'boolean',
                required: true,
                alert: 'Penicillin allergy',
              },
              {
                linkId: 'do-you-have-diabetes',
                text: 'Do you have diabetes?',
                type: 'boolean',
                required: false,
                alert: 'Diabetes',
              },
            ],
          },
        },
      ]),
    );
  });

  it('adds a consent for one treatment, given for each visit, with a choice and a signature', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/form-templates' });
    await user.click(await screen.findByRole('button', { name: 'Add a form' }));
    await user.type(screen.getByLabelText('Title'), 'Sedation consent');
    await user.selectOptions(screen.getByLabelText('Answers last'), 'For one visit (a consent)');
    await user.click(screen.getByRole('checkbox', { name: 'Every treatment' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Root Canal Treatment' }));
    await user.type(screen.getByLabelText('Question 1: what it asks'), 'Who drives you home?');
    await user.selectOptions(screen.getByLabelText('Question 1: answered with'), 'One of a list');
    await user.type(screen.getByLabelText('Question 1: options, one per line'), 'A friend{Enter}A taxi');
    await user.click(screen.getByRole('button', { name: 'Add a question' }));
    const second = within(screen.getByRole('group', { name: 'Question 2' }));
    await user.type(second.getByLabelText('Question 2: what it asks'), 'Sign');
    await user.selectOptions(second.getByLabelText('Question 2: answered with'), 'A typed signature');
    await user.click(second.getByRole('checkbox', { name: 'Question 2 must be answered' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          call: 'POST /api/forms',
          body: {
            title: 'Sedation consent',
            renewMonths: null,
            treatments: ['root-canal'],
            items: [
              {
                linkId: 'who-drives-you-home',
                text: 'Who drives you home?',
                type: 'choice',
                required: true,
                options: [
                  { code: 'a-friend', display: 'A friend' },
                  { code: 'a-taxi', display: 'A taxi' },
                ],
              },
              { linkId: 'sign', text: 'Sign', type: 'signature', required: true },
            ],
          },
        },
      ]),
    );
  });
});
