import '../landing.css';

const services = [
  {
    name: 'Fluoride Treatment',
    description: 'A quick, painless fluoride varnish that strengthens enamel and protects teeth against decay.',
    icon: 'M32 6c-6 10-16 20-16 32a16 16 0 0 0 32 0C48 26 38 16 32 6zm-8 34a8 8 0 0 0 8 8v4a12 12 0 0 1-12-12z',
  },
  {
    name: 'Cavity Filling',
    description: 'Tooth-coloured fillings that repair decay and blend in naturally with the rest of your smile.',
    icon: 'M22 8c-8 0-13 6-13 15 0 8 3 12 5 17 3 7 3 18 8 18s5-13 9-13h2c4 0 4 13 9 13s5-11 8-18c2-5 5-9 5-17 0-9-5-15-13-15-6 0-8 3-11 3S28 8 22 8zm10 12a7 7 0 1 1 0 14 7 7 0 0 1 0-14z',
  },
  {
    name: 'Teeth Whitening',
    description: 'Professional whitening that lifts stains safely for a brighter smile in a single visit.',
    icon: 'M22 12c-8 0-13 6-13 15 0 8 3 12 5 17 3 7 3 14 8 14s5-11 9-11h2c4 0 4 11 9 11s5-7 8-14c2-5 5-9 5-17 0-9-5-15-13-15-6 0-8 3-11 3s-5-3-11-3zM50 2l2 5 5 2-5 2-2 5-2-5-5-2 5-2z',
  },
];

export function Services() {
  return (
    <section className="services" aria-labelledby="services-title">
      <h2 id="services-title">Our Services</h2>
      <p className="section-lead">Everything your teeth need, from prevention to a brighter smile.</p>
      <div className="services__grid">
        {services.map((service) => (
          <article key={service.name} className="service-card">
            <svg className="service-card__icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
              <path fill="currentColor" fillRule="evenodd" d={service.icon} />
            </svg>
            <h3>{service.name}</h3>
            <p>{service.description}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
