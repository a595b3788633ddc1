// Customers and their saved cards (docs/decisions.md#saved-and-one-time-instruments).
import {body, deleted, idOf, idQ, en, livemode, metadata, nullable, obj, q, ref, str, bool, dateTime, type Family} from '../kit.js'
import {cardDetailsProps, PAYMENT_METHOD_DATA} from './payments.js'

export const family: Family = {
  responses: () => ({
    Customer: obj({
      id: idOf('cus'),
      object: {type: 'string', const: 'customer'},
      email: nullable(str()),
      name: nullable(str()),
      description: nullable(str()),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    DeletedCustomer: deleted('cus', 'customer'),
    PaymentMethod: obj({
      id: idOf('pm'),
      object: {type: 'string', const: 'payment_method'},
      type: {type: 'string', const: 'card'},
      card: nullable(obj({...cardDetailsProps, network_token: bool})),
      billing_details: obj({
        name: nullable(str()),
        email: nullable(str()),
        address: nullable(obj({line1: nullable(str()), postal_code: nullable(str()), country: nullable(str())})),
      }),
      customer: nullable(idOf('cus')),
      livemode,
      created_at: dateTime(),
    }),
  }),
  requests: () => ({
    CustomerFields: body({
      email: nullable(str({maxLength: 200})),
      name: nullable(str({maxLength: 200})),
      description: nullable(str({maxLength: 1000})),
      metadata,
    }),
    PaymentMethodCreate: PAYMENT_METHOD_DATA,
  }),
  lists: ['Customer', 'PaymentMethod'],
  operations: [
    {id: 'listCustomers', perm: 'customers:read', method: 'get', path: '/customers', tag: 'Customers', summary: 'List customers', list: true, query: [q('email', {type: 'string'}, 'Only customers with this email.')], response: 'CustomerList', responseDescription: 'A page of customers.'},
    {id: 'createCustomer', perm: 'customers:write', method: 'post', path: '/customers', tag: 'Customers', summary: 'Create a customer', body: 'CustomerFields', status: 201, response: 'Customer', responseDescription: 'The new customer.'},
    {id: 'retrieveCustomer', perm: 'customers:read', method: 'get', path: '/customers/{id}', tag: 'Customers', summary: 'Retrieve a customer', response: 'Customer', responseDescription: 'The customer.', errors: [404]},
    {id: 'updateCustomer', perm: 'customers:write', method: 'post', path: '/customers/{id}', tag: 'Customers', summary: 'Update a customer', body: 'CustomerFields', description: 'Sets the given fields; metadata is merged.', response: 'Customer', responseDescription: 'The updated customer.', errors: [404]},
    {id: 'deleteCustomer', perm: 'customers:write', method: 'delete', path: '/customers/{id}', tag: 'Customers', summary: 'Delete a customer', response: 'DeletedCustomer', responseDescription: 'The deleted customer id.', errors: [404]},
    {id: 'listPaymentMethods', perm: 'payment_methods:read', method: 'get', path: '/payment_methods', tag: 'Payment methods', summary: 'List payment methods', list: true,
      query: [q('customer', idQ('cus'), 'Only payment methods attached to this customer.'), q('type', en(['card']), 'Only this instrument type.')], response: 'PaymentMethodList', responseDescription: 'A page of payment methods.'},
    {id: 'createPaymentMethod', perm: 'payment_methods:write', method: 'post', path: '/payment_methods', tag: 'Payment methods', summary: 'Save a card as a payment method', body: 'PaymentMethodCreate', bodyRequired: true, status: 201,
      description: 'Also callable from a browser with a publishable key (the hosted card fields of {checkout_url}/gw.js do so; answers carry `Access-Control-Allow-Origin: *` for any origin), without `customer` (403: attaching needs a secret key).',
      response: 'PaymentMethod', responseDescription: 'The saved card (the number is never returned).', errors: [404]},
    {id: 'retrievePaymentMethod', perm: 'payment_methods:read', method: 'get', path: '/payment_methods/{id}', tag: 'Payment methods', summary: 'Retrieve a payment method', response: 'PaymentMethod', responseDescription: 'The payment method.', errors: [404]},
    {id: 'detachPaymentMethod', perm: 'payment_methods:write', method: 'post', path: '/payment_methods/{id}/detach', tag: 'Payment methods', summary: 'Detach a payment method from its customer', body: 'Empty',
      description: 'A payment method attached to no customer is 400 payment_method_not_attached.', response: 'PaymentMethod', responseDescription: 'The detached payment method.', errors: [404]},
  ],
}
