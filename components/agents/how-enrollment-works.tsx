// The Agents page's explanation of enrollment, the same for every role.
export function HowEnrollmentWorks() {
  return (
    <section className="card" aria-labelledby="how-enrollment-works">
      <h2 id="how-enrollment-works">How an agent joins this project</h2>
      <ol>
        <li>A member creates an enrollment token here, named after the machine or fleet it is for. Its secret is shown once.</li>
        <li>
          The agent starts with the server address and the token in its environment (<code>VERSUS_URL</code>, <code>VERSUS_ENROLLMENT_TOKEN</code>).
        </li>
        <li>On its first start the agent exchanges the token for a credential of its own and runs this project&apos;s jobs from then on.</li>
      </ol>
      <p className="muted small">
        One token can enroll many agents until it expires or is revoked. Revoking a token stops new enrollments; agents that already enrolled keep their own
        credentials.
      </p>
    </section>
  );
}
